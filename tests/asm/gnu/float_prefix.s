# A float may be written after 0 and a letter (0d, 0f, 0e, 0r).
.data
.double 0d-1.25
.float 0f1.5
.double 0e2.5
.float 0r-3

# An integer attribute of value 0 is its default: GNU as writes no tag
# for it, in either vendor.
.attribute unaligned_access, 0
.attribute stack_align, 0
.attribute priv_spec, 0
.attribute unaligned_access, 1
.gnu_attribute 4, 0
.gnu_attribute 8, 3

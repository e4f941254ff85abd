# Listing directives do nothing; .gnu_attribute writes the gnu vendor's
# attributes after RISC-V's.
.list
.nolist
.psize 60, 200
.title "x"
.sbttl "y"
.eject
.gnu_attribute 4, 1
.gnu_attribute 8, 3
.text
nop

# The other half of pcrel_relax_at_end.s: relaxation off where written and
# on at the end: no marks on those; marks on what is written after.
.text
.option norelax
la a3, ev2
call f
.option relax
la a4, ev3
call g

# .weakref ALIAS, TARGET: uses of ALIAS are TARGET, a weak reference when
# the file never names TARGET directly (u), a strong one when it does (v).
.weakref w, u
.weakref x, v
.text
call w
call x
call v

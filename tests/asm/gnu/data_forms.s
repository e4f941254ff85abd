# GNU as's other data directive names: .hword, .octa, .dc.b/.w/.l/.a, .dc,
# .ds.b/.w/.l (a count of units, each the fill value).
.data
.hword 1, 2
.octa 5
.octa -2
.dc.b 1
.dc.w 2
.dc.l 3
.dc.a 4
.ds.b 2
.ds.w 1, 9
.dc 7
.ds.l 1

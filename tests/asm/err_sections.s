# Section directives
    .section .foo,"az"                   #! unknown section flag `z`
    .popsection                          #! `.popsection` without `.pushsection`
    .text 9000                           #! invalid subsection number 9000
    .subsection x                        #! the subsection number must be known
    .section                             #! missing section name

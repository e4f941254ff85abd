# Section directives
    .section .foo,"az"                   #! unknown section flag `z`
    .popsection                          #! `.popsection` without `.pushsection`
    .text 2                              #! subsections are not supported
    .section                             #! missing section name

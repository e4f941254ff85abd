# ISA strings GNU as refuses are refused at the string, with GNU's reason
# (asm/src/arch.rs; tests/gnu_arch.rs compares with GNU as).
    .attribute arch, "rv32i_zfoo"            #! unknown prefixed ISA extension `zfoo'
    .attribute arch, "RV32I"                 #! uppercase
    .attribute arch, "rv32if_zfinx"          #! is conflict with
    .attribute arch, "rv32i_xfoo"            #! must be set with the versions
    .attribute arch, "rv32imafd"
    nop

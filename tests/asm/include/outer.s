# Includes a file next to itself.
    .include "nested.s"

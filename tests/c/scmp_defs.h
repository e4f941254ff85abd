/* Included by startup.S through the C preprocessor. */
#define WORDS 4
#define SQUARE(x) ((x) * (x))

/* Embeds places.tsv and places.index with the assembler's .incbin.
 *
 * The assembler finds the files through the target directory on its include path
 * (Package.swift: cSettings .headerSearchPath(".")), so the build works from any
 * working directory, and the binary needs no file at run time.
 *
 * .incbin is not seen by the compiler's dependency tracking: after changing places.tsv
 * run `make places-index`, which regenerates places.index and touches this file. */
#include "WayfindPlacesData.h"

__asm__(
    ".section .rodata\n"
    ".balign 16\n"
    "wayfind_places_tsv_start:\n"
    ".incbin \"places.tsv\"\n"
    "wayfind_places_tsv_end:\n"
    ".byte 0\n"
    ".balign 16\n"
    "wayfind_places_index_start:\n"
    ".incbin \"places.index\"\n"
    "wayfind_places_index_end:\n"
    ".byte 0\n"
    ".previous\n");

extern const unsigned char wayfind_places_tsv_start[];
extern const unsigned char wayfind_places_tsv_end[];
extern const unsigned char wayfind_places_index_start[];
extern const unsigned char wayfind_places_index_end[];

const unsigned char *wayfind_places_tsv(void) { return wayfind_places_tsv_start; }
size_t wayfind_places_tsv_count(void) {
    return (size_t)(wayfind_places_tsv_end - wayfind_places_tsv_start);
}
const unsigned char *wayfind_places_index(void) { return wayfind_places_index_start; }
size_t wayfind_places_index_count(void) {
    return (size_t)(wayfind_places_index_end - wayfind_places_index_start);
}

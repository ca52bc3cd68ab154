/* Embeds places.tsv and places.index with the assembler's .incbin.
 *
 * The assembler finds the files through the target directory on its include path
 * (Package.swift: cSettings .headerSearchPath(".")), so the build works from any
 * working directory, and the binary needs no file at run time.
 *
 * .incbin is not seen by the compiler's dependency tracking: after changing places.tsv
 * run `make places-index`, which regenerates places.index and touches this file. */
#include "WayfindPlacesData.h"

/* ELF names the read-only data section .rodata and a C symbol as it is; Mach-O (macOS)
 * has __TEXT,__const and puts an underscore before each C name. (Only the ELF object has
 * been linked; the Mach-O one assembles, `clang --target=arm64-apple-macosx13`.) */
#if defined(__APPLE__) && defined(__MACH__)
#define WAYFIND_READ_ONLY_SECTION ".section __TEXT,__const\n"
#define WAYFIND_SYMBOL(name) "_" #name
#else
#define WAYFIND_READ_ONLY_SECTION ".section .rodata\n"
#define WAYFIND_SYMBOL(name) #name
#endif

__asm__(
    WAYFIND_READ_ONLY_SECTION
    ".balign 16\n"
    WAYFIND_SYMBOL(wayfind_places_tsv_start) ":\n"
    ".incbin \"places.tsv\"\n"
    WAYFIND_SYMBOL(wayfind_places_tsv_end) ":\n"
    ".byte 0\n"
    ".balign 16\n"
    WAYFIND_SYMBOL(wayfind_places_index_start) ":\n"
    ".incbin \"places.index\"\n"
    WAYFIND_SYMBOL(wayfind_places_index_end) ":\n"
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

/* The embedded default gazetteer: places.tsv and its search index, assembled into the
 * binary's read-only data by places.c (an assembler .incbin, so the build costs the time
 * of copying 7 MB, not of compiling a multi-megabyte array literal).
 *
 * Contains data from GeoNames (geonames.org), licensed under CC BY 4.0. */
#ifndef WAYFIND_PLACES_DATA_H
#define WAYFIND_PLACES_DATA_H
#include <stddef.h>

/* The bytes of places.tsv; wayfind_places_tsv_count() of them, followed by a NUL. */
const unsigned char *wayfind_places_tsv(void);
size_t wayfind_places_tsv_count(void);

/* The bytes of places.index (see Places/PlacesIndex.swift), 16-byte aligned. */
const unsigned char *wayfind_places_index(void);
size_t wayfind_places_index_count(void);

#endif

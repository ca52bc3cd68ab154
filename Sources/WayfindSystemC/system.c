#define _GNU_SOURCE
#include "WayfindSystemC.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#if defined(__linux__)
#include <sys/vfs.h>
#include <sys/xattr.h>
#endif

const void *wayfind_find_last_byte(const void *start, int byte, unsigned long count) {
#if defined(__GLIBC__)
    return memrchr(start, byte, count);
#else
    const unsigned char *p = (const unsigned char *)start + count;
    while (p > (const unsigned char *)start) {
        if (*--p == (unsigned char)byte) return p;
    }
    return NULL;
#endif
}

#if defined(__linux__)

long long wayfind_file_system_type(int descriptor) {
    struct statfs info;
    if (fstatfs(descriptor, &info) != 0) return -1;
    return (long long)info.f_type;
}

int wayfind_exchange_paths(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}

int wayfind_is_only_opener(int descriptor) {
    if (fcntl(descriptor, F_SETLEASE, F_WRLCK) != 0) return 0;
    // Dropped at once: holding it would get this process a SIGIO (whose default action
    // ends it) if someone opened the file meanwhile.
    (void)fcntl(descriptor, F_SETLEASE, F_UNLCK);
    return 1;
}

long wayfind_get_attribute(int descriptor, const char *name, void *value, unsigned long size) {
    return (long)fgetxattr(descriptor, name, value, size);
}

int wayfind_set_attribute(int descriptor, const char *name, const void *value, unsigned long size) {
    return fsetxattr(descriptor, name, value, size, 0);
}

int wayfind_remove_attribute(int descriptor, const char *name) {
    return fremovexattr(descriptor, name);
}

#else

int wayfind_exchange_paths(const char *first, const char *second) {
    (void)first;
    (void)second;
    errno = ENOSYS;
    return -1;
}

int wayfind_is_only_opener(int descriptor) {
    (void)descriptor;
    errno = ENOSYS;
    return 0;
}

long long wayfind_file_system_type(int descriptor) {
    (void)descriptor;
    errno = ENOSYS;
    return -1;
}

long wayfind_get_attribute(int descriptor, const char *name, void *value, unsigned long size) {
    (void)descriptor;
    (void)name;
    (void)value;
    (void)size;
    errno = ENOTSUP;
    return -1;
}

int wayfind_set_attribute(int descriptor, const char *name, const void *value, unsigned long size) {
    (void)descriptor;
    (void)name;
    (void)value;
    (void)size;
    errno = ENOTSUP;
    return -1;
}

int wayfind_remove_attribute(int descriptor, const char *name) {
    (void)descriptor;
    (void)name;
    errno = ENOTSUP;
    return -1;
}

#endif

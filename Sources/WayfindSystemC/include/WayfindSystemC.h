// Linux system calls the Swift Glibc module does not export (they need _GNU_SOURCE or
// <sys/xattr.h>).
#ifndef WAYFIND_SYSTEM_C_H
#define WAYFIND_SYSTEM_C_H

/// Swaps the files at `first` and `second` atomically (`renameat2` with
/// `RENAME_EXCHANGE`); both must exist. 0 on success, else -1 with errno set (EINVAL or
/// ENOSYS where the file system or kernel cannot exchange).
int wayfind_exchange_paths(const char *first, const char *second);

/// 1 if no other open file description refers to the file open (for writing) at
/// `descriptor`, proved by taking and at once dropping a write lease (`F_SETLEASE`),
/// which Linux grants only then; memory mappings count as open. 0 if another one may
/// exist or leases are unavailable (errno says why).
int wayfind_is_only_opener(int descriptor);

/// The extended attribute `name` of the file open at `descriptor` (`fgetxattr`): its
/// length, copied into `value` (at most `size` bytes), or -1 with errno set (ENODATA
/// when there is none, ENOTSUP where the file system has none).
long wayfind_get_attribute(int descriptor, const char *name, void *value, unsigned long size);

/// Sets the extended attribute `name` (`fsetxattr`); 0, or -1 with errno set.
int wayfind_set_attribute(int descriptor, const char *name, const void *value, unsigned long size);

/// Removes the extended attribute `name` (`fremovexattr`); 0, or -1 with errno set.
int wayfind_remove_attribute(int descriptor, const char *name);

/// The type (`statfs` magic number) of the file system holding the file open at
/// `descriptor`, or -1 with errno set.
long long wayfind_file_system_type(int descriptor);

/// `memrchr`: the last `byte` in the `count` bytes from `start`, or NULL.
const void *wayfind_find_last_byte(const void *start, int byte, unsigned long count);

#endif

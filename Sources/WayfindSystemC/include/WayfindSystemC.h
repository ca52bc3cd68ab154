// Two Linux system calls the Swift Glibc module does not export (they need _GNU_SOURCE).
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

#endif

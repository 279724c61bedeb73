#ifndef CAMERAROLL_CSTORAGESHIMS_H
#define CAMERAROLL_CSTORAGESHIMS_H

// Linux file calls Swift's Glibc module does not declare (they need _GNU_SOURCE).

/// Asks the kernel to start writing `count` bytes of `fd` from `offset` to disk, without
/// waiting for them (sync_file_range's SYNC_FILE_RANGE_WRITE). 0, or -1 with errno set; where
/// the call does not exist it does nothing and says 0.
int cr_start_writeback(int fd, long long offset, long long count);

/// Copies `count` bytes from `in` to `out` (both at their file offsets) inside the kernel, with
/// copy_file_range: how many it copied (0 at the end of `in`), or -1 with errno set (ENOSYS or
/// EXDEV where it cannot, and then the caller copies).
long long cr_copy_file_range(int in, int out, long long count);

#endif

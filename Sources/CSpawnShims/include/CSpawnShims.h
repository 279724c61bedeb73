#ifndef CAMERAROLL_CSPAWNSHIMS_H
#define CAMERAROLL_CSPAWNSHIMS_H

#include <spawn.h>

// posix_spawn file actions, and pipe2, which Swift's Glibc module does not declare (they need _GNU_SOURCE).

/// Closes every descriptor from `lowest` up in the child before it runs its program
/// (posix_spawn_file_actions_addclosefrom_np, glibc 2.34): a child keeps only the three it is given.
int cr_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int lowest);

/// Makes the child start in `path` (posix_spawn_file_actions_addchdir_np, glibc 2.29).
int cr_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// A pipe whose two ends close on exec (pipe2 with O_CLOEXEC): 0, or -1 with errno set.
int cr_pipe_cloexec(int ends[2]);

#endif

#ifndef TRESOR_CSPAWN_H
#define TRESOR_CSPAWN_H

#include <spawn.h>

/// glibc's posix_spawn file actions that Swift's Glibc module does not show (they need
/// _GNU_SOURCE): change directory, and close every descriptor from `from` up.
int tresor_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);
int tresor_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

#endif

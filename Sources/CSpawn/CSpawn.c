#define _GNU_SOURCE
#include <spawn.h>
#include "CSpawn.h"

int tresor_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int tresor_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

// zlib, to send the web app's stylesheet and scripts gzip-compressed. Installed by
// scripts/install-deps.sh (zlib1g-dev).
#include <zlib.h>

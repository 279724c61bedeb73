#include <webp/mux.h>
#include <webp/demux.h>

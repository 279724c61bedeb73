#include <libheif/heif.h>
#include <libheif/heif_properties.h>

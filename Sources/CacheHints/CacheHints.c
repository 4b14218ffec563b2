// SwiftPM builds a C target only from a source file; everything is in the header, inline.
#include "CacheHints.h"

#include "CacheHints.h"

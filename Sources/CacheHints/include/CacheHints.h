#ifndef CACHE_HINTS_H
#define CACHE_HINTS_H

/// Asks the processor to start loading the cache line at `address` for reading, without waiting
/// for it: a hint, which never faults, even for an address that is not mapped.
static inline void cache_hints_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif

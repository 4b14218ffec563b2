#if canImport(Glibc)
    import Glibc
#endif

/// Backs large arrays with huge pages where the system can. A query reading a few scattered
/// entries of a 70 MB array otherwise misses the TLB on nearly every read, and each miss walks the
/// page tables; with 2 MiB pages the whole index needs a few dozen TLB entries instead of thousands.
enum HugePages {
    /// The huge page size on x86-64 and on arm64 kernels with 4 KiB base pages.
    private static let size: UInt = 2 << 20
    /// Linux's `MADV_COLLAPSE` (since 6.1), which glibc headers before 2.37 do not name.
    private static let collapse: Int32 = 25

    /// Asks the kernel to back the whole huge pages within `bytes` with huge pages now. Linux only:
    /// `MADV_HUGEPAGE` keeps the range eligible, `MADV_COLLAPSE` converts it at once instead of when
    /// khugepaged gets to it. Both are hints; where they fail, or elsewhere, the pages stay as they are.
    static func use(_ bytes: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
            guard let start = bytes.baseAddress else { return }
            let first = (UInt(bitPattern: start) + size - 1) & ~(size - 1)
            let end = (UInt(bitPattern: start) + UInt(bytes.count)) & ~(size - 1)
            guard end > first, let range = UnsafeMutableRawPointer(bitPattern: first) else { return }
            _ = madvise(range, Int(end - first), MADV_HUGEPAGE)
            _ = madvise(range, Int(end - first), collapse)
        #endif
    }
}

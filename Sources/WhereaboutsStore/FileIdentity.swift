import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which file lies at a path: its device, inode and size, as lstat(2) reports them.
///
/// A salvage carries the identity of the damaged file it was made from, so that finishing it after a
/// crash never moves a different file that has since taken the path.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64

    /// The identity of the file at `path`, `nil` when there is none.
    init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        device = UInt64(bitPattern: Int64(info.st_dev))
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
    }

    /// The identity as it appears in a file name: `<device>-<inode>-<size>`.
    var name: String { "\(device)-\(inode)-\(size)" }
}

/// Who is asking.
public enum Principal: Sendable, Equatable {
    /// The operator: may read every device and queue commands.
    case admin
    /// A device: may write and read only itself.
    case device(String)
}

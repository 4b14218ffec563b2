import WhereaboutsCore

/// One parameter set to one value.
public struct PolicySetting: Sendable, Hashable {
    /// The parameter.
    public let parameter: PolicyParameter
    /// Its value, in seconds or metres.
    public let value: Double

    /// Creates a setting.
    public init(parameter: PolicyParameter, value: Double) {
        self.parameter = parameter
        self.value = value
    }

    /// `name=value`, as `--set` takes it.
    public var description: String { "\(parameter.rawValue)=\(value.formatted(.number.grouping(.never)))" }
}

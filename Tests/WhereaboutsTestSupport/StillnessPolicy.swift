import WhereaboutsCore

extension MotionPolicy {
    /// The adaptive policy without cruising or motion sensing, with a 150 s stop timeout and an 8 s
    /// hold, and a 20 m distance filter: what the tests of the moving/stationary machine reason about.
    public static let stillnessOnly: MotionPolicy = {
        var policy = MotionPolicy.adaptive
        policy.cruiseAccuracy = nil
        policy.motionSensing = false
        policy.stopTimeout = 150
        policy.raisedAccuracyHold = 8
        policy.distanceFilter = 20
        return policy
    }()
}

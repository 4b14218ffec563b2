import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore

extension Bridge {
    /// Runs one call whose arguments are a JSON object, answering its JSON result.
    func dispatch(_ method: BridgeMethod, _ body: Data) async throws -> Data {
        switch method {
        case .startTracking:
            try await engine.start(mode: try BridgeJSON.decode(StartTrackingArguments.self, from: body).trackingMode())
        case .stopTracking:
            try await engine.stop()
        case .setMode:
            guard let mode = try BridgeJSON.decode(StartTrackingArguments.self, from: body).trackingMode() else {
                throw ArgumentProblem("\"mode\" is missing")
            }
            try await engine.setMode(mode)
        case .getCurrentLocation:
            return try await engine.currentLocation().map { try BridgeJSON.encode(CurrentLocationValue($0)) } ?? Self.null
        case .getLocations:
            return try await locations(BridgeJSON.decode(GetLocationsArguments.self, from: body))
        case .getLocationData:
            return try BridgeJSON.encode(await engine.snapshot())
        case .requestLocationUpdate:
            try await engine.requestLocationUpdate()
        case .startActiveTracking:
            let minutes = try BridgeJSON.decode(ActiveTrackingArguments.self, from: body).minutes
            guard minutes.isFinite, (1...1440).contains(minutes) else { throw ArgumentProblem("minutes \(minutes) is not in 1...1440") }
            try await engine.startActiveTracking(for: minutes * 60)
        case .checkPermissions:
            try await engine.checkPermissions()
            return try await permissionsValue()
        case .requestPermission:
            let kind = try BridgeJSON.decode(PermissionArguments.self, from: body).permissionKind()
            let updates = engine.snapshots()
            await awaitAnswer(to: try await engine.requestPermissionDialog(kind), from: updates)
            return try await permissionsValue()
        case .locationAction:
            let updates = engine.snapshots()
            await awaitAnswer(to: try await engine.locationActionDialog(), from: updates)
            return try await permissionsValue()
        case .addRegions:
            let regions = try BridgeJSON.decode(AddRegionsArguments.self, from: body).validated()
            try await engine.addRegions(regions)
            return try BridgeJSON.encode(["added": regions.count])
        case .setRegions:
            let regions = try BridgeJSON.decode(AddRegionsArguments.self, from: body).validated()
            try await engine.setRegions(regions)
            return try BridgeJSON.encode(["count": regions.count])
        case .removeRegions:
            try await engine.removeRegions(BridgeJSON.decode(RemoveRegionsArguments.self, from: body).ids)
        case .getRegions:
            let inside = Set(await engine.insideRegionIDs)
            return try BridgeJSON.encode(try await engine.regions().map { RegionValue($0, inside: inside.contains($0.id)) })
        case .configureNotifications:
            let settings = try BridgeJSON.decode(NotificationArguments.self, from: body).settings()
            try setting(.regionNotifications, settings, doing: "store the notification settings")
            let allowed = await notifications?.apply(settings) ?? false
            return try BridgeJSON.encode(["enabled": settings.enabled, "allowed": allowed])
        case .addRegionHere:
            let arguments = try BridgeJSON.decode(AddRegionHereArguments.self, from: body)
            let saved = try await engine.addRegionHere(
                id: arguments.id, radius: arguments.radius, accuracy: arguments.accuracy ?? 20, timeout: arguments.timeout ?? 20)
            return try BridgeJSON.encode(RegionHereValue(saved.region, fix: saved.fix))
        case .markRegion:
            let arguments = try BridgeJSON.decode(MarkRegionArguments.self, from: body)
            guard let region = try await engine.markRegion(at: arguments.locationID(), radius: arguments.radius) else { return Self.null }
            return try BridgeJSON.encode(RegionValue(region, inside: await engine.insideRegionIDs.contains(region.id)))
        case .configure:
            let arguments = try BridgeJSON.decode(ConfigureArguments.self, from: body)
            // The interval first: it is the part a value can refuse, and then nothing changes.
            if let interval = arguments.uploadInterval { try await engine.setUploadInterval(interval) }
            try await engine.configureUploads(arguments.upload)
        case .setAuth:
            try await engine.setAuthTokens(BridgeJSON.decode(SetAuthArguments.self, from: body).tokens())
        case .signOut:
            try await engine.setAuthTokens(nil)
        case .flush:
            return try BridgeJSON.encode(FlushValue(try await flush()))
        case .clearLocations:
            return try BridgeJSON.encode(["removed": try await engine.clearLocations()])
        }
        return Self.null
    }

    /// The permission calls' answer now.
    func permissionsValue() async throws -> Data {
        try BridgeJSON.encode(PermissionsValue(await engine.permissions, problems: await engine.permissionProblems))
    }

    /// The JSON `null`.
    static let null = Data("null".utf8)

    private func locations(_ arguments: GetLocationsArguments) async throws -> Data {
        let limit = try arguments.validLimit()
        let values: [StoredLocationValue]
        if arguments.includeUploaded == true {
            values = try await engine.recordedLocationStates(limit: limit).map { StoredLocationValue($0.record, state: $0.state) }
        } else {
            values = try await engine.pendingLocations().suffix(limit).map { StoredLocationValue($0, state: .pending) }
        }
        return try BridgeJSON.encode(values)
    }

    private func flush() async throws -> FlushReport {
        guard await engine.uploadAccount.settings != nil else {
            throw BridgeError.notConfigured(.flush, "uploads are not configured; call configure({upload}) first")
        }
        guard let report = await engine.flush() else {
            throw BridgeError.notConfigured(.flush, "the engine has no uploader; create it with uploader: Bridge.uploader(store:)")
        }
        return report
    }

    private func setting<Value: Codable>(_ key: SettingKey<Value>, _ value: Value?, doing action: String) throws(EngineError) {
        do { try engine.store.set(key, value) } catch { throw .store(error, doing: action) }
    }
}

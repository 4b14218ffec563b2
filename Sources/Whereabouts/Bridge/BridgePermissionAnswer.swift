import Foundation
import WhereaboutsCore

extension Bridge {
    /// How long `requestPermission` and `locationAction` wait for the user's answer to the dialog
    /// they showed, in seconds on the engine's clock. iOS reports nothing when the user keeps While
    /// Using in the Always dialog, so a background request answers after this long at most.
    public static let permissionAnswerWait: TimeInterval = 30

    /// Waits until the user has answered the dialog of `dialog`'s permission, read from `updates`
    /// (the engine's snapshots, subscribed to before the dialog was asked for, so no answer is
    /// missed), at most ``permissionAnswerWait`` seconds, or until the engine shuts down. Returns at
    /// once when no dialog was shown (`nil`).
    func awaitAnswer(to dialog: PermissionKind?, from updates: AsyncStream<LocationData>) async {
        guard let dialog else { return }
        let engine = engine
        let watcher = Task {
            let now = await engine.permissions
            // This request's time: snapshots buffered from before it (an earlier request's records)
            // answer nothing.
            let asked = now.background?.requestedAt
            if Self.answered(dialog, now, askedAt: asked) { return }
            for await data in updates {
                let permissions = Permissions(foreground: data.foregroundPermission, background: data.backgroundPermission)
                if Self.answered(dialog, permissions, askedAt: asked) { return }
            }
        }
        let clock = engine.clock
        let timeout = clock.spawn {
            do { try await clock.sleep(seconds: Self.permissionAnswerWait) } catch { return }
            watcher.cancel()
        }
        await watcher.value
        timeout.cancel()
    }

    /// Whether the records show the user's answer to `dialog`: the foreground permission no longer
    /// `prompt` (granted, or refused so that only Settings can grant it); background, asked for at
    /// `askedAt` (this request), granted or read from the OS again since (a refusal leaves Always off).
    static func answered(_ dialog: PermissionKind, _ permissions: Permissions, askedAt: Date?) -> Bool {
        switch dialog {
        case .foreground:
            return PermissionState(permissions.foreground) != .prompt
        case .background:
            guard let record = permissions.background, let askedAt, record.requestedAt == askedAt else { return false }
            return record.isGranted || record.checkedAt > askedAt
        }
    }
}

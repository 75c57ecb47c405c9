import CSpawn
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`. why not Foundation's `Process`: on Linux (Swift
/// 6.3.1) its `run()` copies whole `dirent` names while it lists /proc/self/fd and, now and
/// then, reads past glibc's buffer and crashes the caller (swift-corelibs-foundation #5472).
/// The server spawns a scan worker per image and the test bundle hundreds of tools; both met it.
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream {
        case inherit
        case null
        /// The child gets the pipe's end it needs; this process closes its copy of that end
        /// after the start, so reading the other end sees the end of the file.
        case pipe(Pipe)
        case handle(FileHandle)
    }

    public enum TerminationReason: Sendable { case exit, uncaughtSignal }

    /// `posix_spawn` refused: `code` is its errno (ETXTBSY, ENOENT, EACCES …).
    public struct SpawnError: Error, CustomStringConvertible {
        public let code: Int32
        public let executable: String
        public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
    }

    public let processIdentifier: pid_t
    private let lock = NSLock()
    /// The raw `waitpid` status once the child has been reaped.
    private var status: Int32?

    public init(
        _ executable: URL, _ arguments: [String] = [], environment: [String: String]? = nil, directory: URL? = nil,
        stdin: Stream = .null, stdout: Stream = .inherit, stderr: Stream = .inherit
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var parentCopies: [FileHandle] = []
        for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .inherit: break
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .handle(let handle): posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            case .pipe(let pipe):
                let end = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target)
                parentCopies.append(end)
            }
        }
        if let directory { tresor_spawn_addchdir(&actions, directory.path) }
        // why: a descriptor another thread just opened (a socket, a pipe) stays the parent's.
        tresor_spawn_addclosefrom(&actions, 3)
        // why: signals this process ignores or blocks (SIGPIPE, the ones a service handles)
        // would stay ignored or blocked across exec.
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in variables { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, variables)
        guard result == 0 else { throw SpawnError(code: result, executable: executable.path) }
        processIdentifier = pid
        for end in parentCopies { try? end.close() }
    }

    /// A child nobody waited for is reaped when it ends. why: Foundation's `Process` did that
    /// from its SIGCHLD handler; without it each discarded scan worker stayed a zombie.
    deinit {
        guard lock.withLock({ status }) == nil else { return }
        let pid = processIdentifier
        DispatchQueue.global(qos: .utility).async {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        }
    }

    /// False once the child has exited (it is reaped here).
    public var isRunning: Bool {
        lock.withLock {
            if status != nil { return false }
            var raw: Int32 = 0
            if waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier {
                status = raw
                return false
            }
            return true
        }
    }

    /// Blocks until the child has exited.
    public func waitUntilExit() {
        var raw: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(processIdentifier, &raw, 0) } while reaped == -1 && errno == EINTR
        lock.withLock {
            // -1 (ECHILD): `isRunning` on another thread reaped it, under this lock.
            if reaped == processIdentifier { status = raw }
        }
    }

    /// The exit code, or the signal's number when one ended the child.
    public var terminationStatus: Int32 {
        let raw = lock.withLock { status } ?? 0
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }

    public var terminationReason: TerminationReason {
        (lock.withLock { status } ?? 0) & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    /// Sends `signal` unless the child has been reaped (its pid may belong to another by then).
    public func signal(_ signal: Int32) {
        lock.withLock {
            if status == nil { _ = kill(processIdentifier, signal) }
        }
    }
}

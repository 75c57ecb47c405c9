import ArgumentParser
import Foundation

/// Refuses `path`, given with `option` for a folder to write into, when it names a file.
/// why: creating the folder then failed with "PATH: File exists", which names no mistake.
/// A path that names nothing is fine: the command makes the folder.
func refuseFile(at path: String, for option: String) throws {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
        throw ValidationError("\(option) \(path) is a file, not a folder.")
    }
}

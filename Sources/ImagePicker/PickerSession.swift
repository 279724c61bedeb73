public import Vocabulary

/// A picker's life, as a state machine the I/O layer drives: presented, then picking from the
/// library or capturing with the camera, then editing when the configuration allows it, then
/// finished or cancelled. Each event gives the actions to carry out; any other transition is
/// refused, so a late or doubled message (a second Choose, a Cancel after finishing) changes
/// nothing.
public struct PickerSession: Sendable, Equatable, Codable {
    public enum State: Sendable, Equatable, Codable {
        case presented
        case picking
        case capturing
        /// Move and Scale (images) or trimming (movies) of the chosen asset.
        case editing(assetID: String, mediaType: MediaType)
        /// With the info of each item picked, in the user's order (one, for the book's picker).
        case finished([PickerInfo])
        case cancelled

        public var isFinal: Bool {
            switch self {
            case .finished, .cancelled: true
            default: false
            }
        }
    }

    public enum Event: Sendable, Equatable {
        /// The picker's page opened on its source.
        case open
        /// The user chose or captured an asset.
        case chose(PickerInfo)
        /// The user left the editor for the grid or the camera.
        case back
        /// The editor's Choose, with the edited result.
        case edited(PickerInfo)
        /// The Add of a multiple selection, with the items in the user's order.
        case added([PickerInfo])
        case cancel
    }

    public enum Action: Sendable, Equatable {
        case showLibrary
        case showCamera
        case showEditor(assetID: String, mediaType: MediaType)
        /// Hand the infos to whoever presented the picker (the book's didFinishPickingMediaWithInfo,
        /// PHPicker's didFinishPicking with its results).
        case deliver([PickerInfo])
        /// The book's imagePickerControllerDidCancel.
        case deliverCancel
    }

    public let configuration: PickerConfiguration
    public private(set) var state: State = .presented

    public init(configuration: PickerConfiguration) throws(PickerError) {
        try configuration.validate()
        self.configuration = configuration
    }

    public mutating func handle(_ event: Event) throws(PickerError) -> [Action] {
        switch (state, event) {
        case (.presented, .open), (.editing, .back):
            return showSource()

        case (.picking, .chose(let info)), (.capturing, .chose(let info)):
            try check(info)
            if configuration.allowsEditing {
                state = .editing(assetID: info.assetID, mediaType: info.mediaType)
                return [.showEditor(assetID: info.assetID, mediaType: info.mediaType)]
            }
            state = .finished([info])
            return [.deliver([info])]

        // PHPicker's multiple selection: no editing, as there.
        case (.picking, .added(let infos)):
            guard !infos.isEmpty, infos.count <= configuration.selectionLimit else {
                throw PickerError(.invalidSelection, "Add between 1 and \(configuration.selectionLimit) items.")
            }
            guard Set(infos.map(\.assetID)).count == infos.count else {
                throw PickerError(.invalidSelection, "An item is added twice.")
            }
            for info in infos { try check(info) }
            state = .finished(infos)
            return [.deliver(infos)]

        case (.editing(let assetID, _), .edited(let info)):
            guard info.assetID == assetID else {
                throw PickerError(.invalidTransition, "The edit is for another asset than the one being edited.")
            }
            try check(info)
            state = .finished([info])
            return [.deliver([info])]

        case (let current, .cancel) where !current.isFinal:
            state = .cancelled
            return [.deliverCancel]

        default:
            throw PickerError(.invalidTransition, "\(event.name) is not possible while the picker is \(state.name).")
        }
    }

    /// The camera or the library, as the source type says: on opening, and back from the editor.
    private mutating func showSource() -> [Action] {
        if configuration.sourceType == .camera {
            state = .capturing
            return [.showCamera]
        }
        state = .picking
        return [.showLibrary]
    }

    private func check(_ info: PickerInfo) throws(PickerError) {
        try info.validate()
        guard configuration.mediaTypes.contains(info.mediaType) else {
            throw PickerError(
                .invalidMediaType, "This picker offers \(configuration.mediaTypes.map(\.rawValue).joined(separator: ", ")) only.")
        }
    }
}

extension PickerSession.State {
    public var name: String {
        switch self {
        case .presented: "presented"
        case .picking: "picking"
        case .capturing: "capturing"
        case .editing: "editing"
        case .finished: "finished"
        case .cancelled: "cancelled"
        }
    }
}

extension PickerSession.Event {
    var name: String {
        switch self {
        case .open: "open"
        case .chose: "choose"
        case .back: "back"
        case .edited: "finish editing"
        case .added: "add"
        case .cancel: "cancel"
        }
    }
}

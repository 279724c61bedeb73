/// How much a decode lets through.
public enum DamagePolicy: Sendable {
    /// The data must not end early; damage inside it that the decoder works around (grey rows,
    /// guessed blocks) is let through. For files already accepted: a render must not fail on
    /// what an import let in.
    case refuseTruncation
    /// Nor may the decoder lose pixels to damage inside the data: a JPEG is decoded by libjpeg
    /// itself, which tells the warnings that lose pixels from the harmless ones. For a file's
    /// first decode, which decides whether it is accepted.
    case refuseDamage
}

namespace Folio.Indexing.Analysis;

/// <summary>
/// A detached copy of a <see cref="Token"/>, for callers off the hot path (query parsing, tests,
/// diagnostics) that want a list rather than a callback.
/// </summary>
/// <param name="Term">The analysed term text.</param>
/// <param name="Position">The zero-based position of the token.</param>
/// <param name="StartOffset">Index of the token's first UTF-16 code unit in the source text.</param>
/// <param name="EndOffset">Index just past the token's last UTF-16 code unit in the source text.</param>
public readonly record struct AnalyzedToken(string Term, int Position, int StartOffset, int EndOffset);

namespace Folio.Storage.Documents;

/// <summary>
/// How far an open has got moving a store's documents from an older format to the one this build writes, which it
/// does before the store serves anything (a million search records take about a second; a store a hundred times that,
/// minutes). Reported once the opening transaction has checked every old record, then at most once a second while
/// the records are rewritten, and once at the end.
/// </summary>
/// <param name="FromFormat">
/// The format the store was in when it was opened: the current one when the open resumes a move a crash interrupted
/// (<paramref name="Resumed"/>), since the opening transaction that began it already marked the store.
/// </param>
/// <param name="ToFormat">The format it is moved to.</param>
/// <param name="RecordsMoved">Records rewritten by this open. An open that resumes a move a crash interrupted counts only those left.</param>
/// <param name="Records">Documents in the store.</param>
/// <param name="Elapsed">Time since the open began the move.</param>
/// <param name="Finished">Whether the move is complete.</param>
/// <param name="Resumed">Whether this open resumes a move an earlier one began.</param>
public sealed record FormatMoveProgress(int FromFormat, int ToFormat, long RecordsMoved, long Records, TimeSpan Elapsed, bool Finished, bool Resumed);

namespace Folio.Indexing.Search;

// Dead entries (DeadEntries): deletes that leave full-text postings as they are, and the sweep that takes them out.
public sealed partial class IndexBatch
{
    /// <summary>The flag of a record's field whose postings a delete leaves to the sweep: a full-text field's.</summary>
    private const byte DeadEntryFlags = EntryRecord.PositionsFlag;

    // Entries this batch deleted whose full-text postings still hold them, and those fields.
    private readonly List<long> _deadIds = [];
    private readonly HashSet<string> _deadFields = new(StringComparer.Ordinal);
    private bool _sweep;

    /// <summary>
    /// Takes every deleted entry's ids out of the full-text postings at <see cref="Commit()"/>, however few there are
    /// (a batch otherwise sweeps once they reach an eighth of the entries): afterwards no posting, term dictionary or term
    /// walk holds anything of a deleted entry.
    /// </summary>
    public void SweepDeadEntries()
    {
        ThrowIfDone();
        _sweep = true;
    }

    /// <summary>
    /// Adds the batch's dead entries to the index's; once they reach <see cref="DeadEntries.SweepThreshold"/>, gives every
    /// dead field the whole set to take out of its postings when it flushes, and empties the set.
    /// </summary>
    private void WriteDeadEntries()
    {
        if (_deadIds.Count == 0 && !_sweep)
            return;
        var count = _deadIds.Count > 0 ? DeadEntries.Add(_transaction, _meta, _deadIds, _deadFields) : DeadEntries.Count(_transaction);
        if (count == 0 || (count < DeadEntries.SweepThreshold(_entryCount) && !_sweep))
            return;
        var dead = DeadEntries.ReadIds(_transaction.OpenTree(DeadEntries.IdsTree));
        foreach (var name in DeadEntries.ReadFields(_transaction.OpenTree(DeadEntries.FieldsTree)))
            Field(name).SweepIds = dead;
        DeadEntries.Clear(_transaction, _meta);
    }
}

using Folio.Storage.Documents;

namespace Folio.Server.Patching;

/// <summary>
/// One attempt at a batch with patches: the storage commands it comes to, which batch command each one answers,
/// and the patches that wrote nothing.
/// </summary>
internal sealed class BatchPlan
{
    private readonly int[] _slots;
    private readonly PatchStatus[] _statuses;
    private readonly string?[] _changeVectors;

    public BatchPlan(int count)
    {
        _slots = new int[count];
        _statuses = new PatchStatus[count];
        _changeVectors = new string?[count];
    }

    /// <summary>The storage commands, in batch order.</summary>
    public List<DocumentCommand> Writes { get; } = [];

    /// <summary>Ids whose condition is the version a script read (not one the client named): losing it is a reason to retry.</summary>
    public HashSet<string> OwnConditions { get; } = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Command <paramref name="index"/> writes <paramref name="write"/>.</summary>
    public void Add(int index, DocumentCommand write, PatchStatus status = PatchStatus.None)
    {
        _slots[index] = Writes.Count;
        _statuses[index] = status;
        Writes.Add(write);
    }

    /// <summary>Command <paramref name="index"/> is a patch that writes nothing.</summary>
    public void Skip(int index, PatchStatus status, string? changeVector)
    {
        _slots[index] = -1;
        _statuses[index] = status;
        _changeVectors[index] = changeVector;
    }

    /// <summary>The outcome once the storage ran <see cref="Writes"/>; patched documents are read back as stored.</summary>
    public BatchOutcome Complete(IReadOnlyList<WriteResult?> written, DocumentStore store)
    {
        var results = new WriteResult?[_slots.Length];
        for (int i = 0; i < _slots.Length; i++)
            results[i] = _slots[i] < 0 ? null : written[_slots[i]];
        var documents = new byte[]?[_slots.Length];
        using (var reader = store.OpenReader())
        {
            for (int i = 0; i < _slots.Length; i++)
            {
                if (_statuses[i] is PatchStatus.Created or PatchStatus.Patched && results[i] is { } result && reader.TryGet(result.Id, out var document))
                    documents[i] = document.Json.ToArray();
            }
        }
        return new BatchOutcome(results, written, _statuses, _changeVectors, documents);
    }
}

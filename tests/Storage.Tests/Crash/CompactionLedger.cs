using System.Globalization;
using Folio.Storage.Documents;

namespace Folio.Storage.Tests.Crash;

/// <summary>
/// What the CrashWriter's compaction modes told the test about documents <c>compact/n</c>: per id, the state its
/// last acknowledged write left ("PUT n crc" or "DEL n"), and the state of a write announced ("TRY n crc|-") but
/// not acknowledged before the kill, which may or may not have committed. Ids never written must not exist.
/// </summary>
internal sealed class CompactionLedger
{
    /// <summary>The size of the child's id space; as in tests/CrashWriter/CompactionLoop.cs.</summary>
    public const int IdSpace = 24_000;

    private const string IdPrefix = "compact/";

    // Null: no document (never written, or deleted).
    private readonly uint?[] _acknowledged = new uint?[IdSpace];
    private readonly Dictionary<int, uint?> _inFlight = [];

    public long Puts { get; private set; }

    public long Deletes { get; private set; }

    /// <summary>Ids whose unacknowledged write was found committed, over all checks.</summary>
    public long UnacknowledgedFound { get; private set; }

    /// <summary>
    /// Takes a run's lines in order; returns where its last compaction stood when it died: "no compaction yet",
    /// a phase name (Swapping covers the rename; Completed is after it), or "between compactions".
    /// </summary>
    public string Take(IEnumerable<string> lines)
    {
        var phase = "no compaction yet";
        foreach (var line in lines)
        {
            var parts = line.Split(' ');
            switch (parts)
            {
                case ["TRY", var n, var state]:
                    _inFlight[Number(n)] = state == "-" ? null : Checksum(state);
                    break;
                case ["PUT", var n, var checksum]:
                    _acknowledged[Number(n)] = Checksum(checksum);
                    _inFlight.Remove(Number(n));
                    Puts++;
                    break;
                case ["DEL", var n]:
                    _acknowledged[Number(n)] = null;
                    _inFlight.Remove(Number(n));
                    Deletes++;
                    break;
                case ["PHASE", var name]:
                    phase = name;
                    break;
                case ["COMPACTED", _, _]:
                    phase = "between compactions";
                    break;
            }
        }
        return phase;
    }

    /// <summary>
    /// Checks every id against its acknowledged state (or its unacknowledged one), then takes what the store holds
    /// as acknowledged: the next run starts from it.
    /// </summary>
    public void Check(DocumentStore store, string where)
    {
        using var reader = store.OpenReader();
        var present = 0;
        for (var n = 0; n < IdSpace; n++)
        {
            var id = IdPrefix + n.ToString(CultureInfo.InvariantCulture);
            uint? found = null;
            if (reader.TryGet(id, out var document))
            {
                found = SentJson.Checksum(document.Json);
                Assert.True(found is not null, $"{where}: {id} has no metadata");
                present++;
            }
            var expected = _acknowledged[n];
            if (found != expected)
            {
                var inFlight = _inFlight.TryGetValue(n, out var state);
                Assert.True(inFlight && found == state, $"{where}: {id} holds {Describe(found)}; its last acknowledged write left {Describe(expected)}"
                    + (inFlight ? $" and its unacknowledged one {Describe(state)}" : " and none was in flight"));
                UnacknowledgedFound++;
                _acknowledged[n] = found;
            }
        }
        _inFlight.Clear();

        var listed = 0;
        var cursor = reader.ByIdPrefix(IdPrefix);
        while (cursor.MoveNext())
            listed++;
        Assert.True(listed == present, $"{where}: the id index lists {listed} documents under {IdPrefix}, {present} read back");
    }

    private static string Describe(uint? state) => state is { } checksum ? $"a body with CRC {checksum:X8}" : "no document";

    private static int Number(string text) => int.Parse(text, CultureInfo.InvariantCulture);

    private static uint Checksum(string text) => uint.Parse(text, NumberStyles.HexNumber, CultureInfo.InvariantCulture);
}

using System.Buffers;
using Folio.Server.BulkInsert;
using Folio.Storage.Documents;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// The bulk insert stream reader (<see cref="BulkInsertParser"/>), which keeps its state between pieces of the body as
/// the network delivers them. It refuses with <see cref="BulkInsertCommandException"/> only, and how the body is cut
/// must not change the outcome: the input's first byte picks the piece size and the batch size, and the commands read
/// (and where it stopped, if it refused) must equal those of reading the body whole.
/// </summary>
public static class BulkInsertHarness
{
    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input)
    {
        if (input.Length == 0)
            return;
        byte cut = input[0];
        byte[] body = input[1..];
        var whole = Read(body, Math.Max(body.Length, 1), int.MaxValue);
        var pieces = Read(body, 1 + (cut & 31), 1 + (cut >> 5));
        InvariantException.Check(whole.Refusal == pieces.Refusal, $"Whole: {whole.Refusal ?? "accepted"}; in pieces: {pieces.Refusal ?? "accepted"}.");
        InvariantException.Check(whole.Ids.SequenceEqual(pieces.Ids, StringComparer.Ordinal), $"Whole read {whole.Ids.Count} commands, in pieces {pieces.Ids.Count} (or other ids).");
    }

    /// <summary>Feeds <paramref name="body"/> to a parser <paramref name="piece"/> bytes at a time, as the request pipe would.</summary>
    private static (List<string> Ids, string? Refusal) Read(byte[] body, int piece, int maxCommands)
    {
        using var parser = new BulkInsertParser(maxDepth: 32, maxDocumentBytes: 64 * 1024);
        var ids = new List<string>();
        byte[] pending = [];
        int delivered = 0;
        var batch = new List<DocumentCommand>();
        try
        {
            while (true)
            {
                int add = Math.Min(piece, body.Length - delivered);
                pending = [.. pending, .. body.AsSpan(delivered, add)];
                delivered += add;
                bool final = delivered == body.Length;
                while (true)
                {
                    batch.Clear();
                    long batchBytes = 0;
                    var buffer = new ReadOnlySequence<byte>(pending);
                    var status = parser.Parse(buffer, final, batch, ref batchBytes, maxCommands, long.MaxValue, out SequencePosition consumed, out _);
                    foreach (var command in batch)
                        ids.Add(command.Id);
                    pending = pending[(int)buffer.Slice(0, consumed).Length..];
                    if (status == BulkInsertParseStatus.Completed)
                        return (ids, null);
                    if (status == BulkInsertParseStatus.NeedMoreData && pending.Length == 0)
                        break;
                }

                InvariantException.Check(!final, "The parser wants more of a body that has ended.");
            }
        }
        catch (BulkInsertCommandException e)
        {
            // The run stores the commands the failing call had already read (BulkInsertRun's prefix), so they count.
            foreach (var command in batch)
                ids.Add(command.Id);
            InvariantException.Check(e.StatusCode is 400 or 413, $"A refusal with status {e.StatusCode}.");
            InvariantException.Check(e.CommandIndex == ids.Count, $"The refusal names command {e.CommandIndex} after {ids.Count} were read.");
            return (ids, $"{e.StatusCode} at command {e.CommandIndex}");
        }
    }
}

using System.IO.Pipelines;
using System.Text.Json;
using Folio.Server.Subscriptions.Tcp;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// Folio's subscription line protocol (docs/tcp-protocol.md) as a worker's bytes reach the server: the header line, then
/// acknowledgements, each read by <see cref="SubscriptionSession.ReadLineAsync"/>. The input's first byte picks how the
/// bytes are cut. The only refusal is <see cref="InvalidDataException"/> (answered with an <c>Invalid</c> line); anything
/// else would drop the connection with an error logged.
/// </summary>
public static class TcpFolioHarness
{
    // The etag the harness's one batch ends at; the corpus's acknowledgements name it.
    private const long BatchEnd = 42;

    private static readonly SubscriptionOptions s_options = new();

    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input)
    {
        if (input.Length == 0)
            return;
        PipeReader reader = PipeFeed.Create(input.AsSpan(1), 1 + (input[0] & 15));
        try
        {
            using (JsonDocument? header = SubscriptionSession.ReadLineAsync(reader, CancellationToken.None).GetAwaiter().GetResult())
            {
                if (header is null || !SubscriptionSession.TryReadHeader(header.RootElement, s_options, out _, out _))
                    return;
            }

            while (SubscriptionSession.ReadLineAsync(reader, CancellationToken.None).GetAwaiter().GetResult() is { } line)
            {
                using (line)
                    SubscriptionSession.CheckAcknowledgement(line.RootElement, BatchEnd);
            }
        }
        catch (InvalidDataException)
        {
        }
    }
}

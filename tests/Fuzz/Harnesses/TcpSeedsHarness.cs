using System.IO.Pipelines;
using System.Text.Json;
using Folio.Server.Subscriptions.Tcp;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// The seeds' clients' subscription protocol as their bytes reach the server: JSON values with nothing between them
/// (<see cref="JsonValueReader"/>), first the connection header (<see cref="SeedsSubscriptionSession.ReadHeader"/>), then
/// the worker's options (<see cref="SeedsWorkerOptions.TryRead"/>), then acknowledgements. The input's first byte picks
/// how the bytes are cut. The only refusal is <see cref="InvalidDataException"/>; anything else would drop the connection
/// with an error logged.
/// </summary>
public static class TcpSeedsHarness
{
    private const int MaxMessageBytes = 1024 * 1024;

    private static readonly SubscriptionOptions s_options = new();

    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input)
    {
        if (input.Length == 0)
            return;
        PipeReader pipe = PipeFeed.Create(input.AsSpan(1), 1 + (input[0] & 15));
        var reader = new JsonValueReader(pipe, MaxMessageBytes);
        try
        {
            if (reader.PeekFirstAsync(CancellationToken.None).GetAwaiter().GetResult() != JsonValueReader.FirstValue.SeedsHeader)
                return;
            using (JsonDocument? header = Next(reader))
            {
                if (header is null || SeedsSubscriptionSession.ReadHeader(header.RootElement) is null)
                    return;
            }

            using (JsonDocument? options = Next(reader))
            {
                if (options is null || !SeedsWorkerOptions.TryRead(options.RootElement, s_options.MaxBatchSize, out _, out _))
                    return;
            }

            while (Next(reader) is { } message)
            {
                using (message)
                {
                    JsonElement root = message.RootElement;
                    if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Type", out JsonElement type) || type.ValueKind != JsonValueKind.String)
                        return;
                }
            }
        }
        catch (InvalidDataException)
        {
        }
    }

    private static JsonDocument? Next(JsonValueReader reader) => reader.ReadAsync(CancellationToken.None).GetAwaiter().GetResult();
}

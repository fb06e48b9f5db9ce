using System.Net;
using System.Text.Json;
using Microsoft.AspNetCore.Http.Features;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>The seeds' protocol's connection header: agreeing on a version, and checking the worker may connect.</summary>
internal sealed partial class SeedsSubscriptionSession
{
    /// <summary>The protocol versions of the seeds' subscriptions this server speaks, newest first; it compresses nothing.</summary>
    private static readonly int[] s_versions = [53_000, 51_000, 50_000, 41_400, 40];

    private const int OutOfRange = -1;

    /// <summary>
    /// Reads headers until a version is agreed: answers a version this server speaks with <c>Ok</c>, a newer one with the
    /// newest it speaks (the worker then asks again), an older one as out of range. Returns the database named, or null
    /// when the worker went away, dropped the connection or may not connect.
    /// </summary>
    private async Task<string?> NegotiateAsync(CancellationToken closed)
    {
        while (true)
        {
            using JsonDocument? header = await _reader.ReadAsync(closed);
            if (header is null)
                return null;
            if (ReadHeader(header.RootElement) is not { } asked)
                return null;
            (string database, int version) = asked;
            if (Array.IndexOf(s_versions, version) < 0)
            {
                int offered = version > s_versions[0] ? s_versions[0] : OutOfRange;
                foreach (int known in s_versions)
                {
                    if (known < version)
                    {
                        offered = known;
                        break;
                    }
                }

                await SendHeaderAsync("TcpVersionMismatch", offered, $"Version {version} is not one this server speaks; it offers {offered}.");
                if (offered == OutOfRange)
                    return null;
                continue;
            }

            var address = (_connection.RemoteEndPoint as IPEndPoint)?.Address;
            if (_authenticator.CheckSession(null, _connection.Features.Get<ITlsConnectionFeature>()?.ClientCertificate, address, database) is { } refusal)
            {
                await RefuseHeaderAsync("AuthorizationFailed", version, refusal.Detail);
                return null;
            }

            await SendHeaderAsync("Ok", version, null);
            return database;
        }
    }

    /// <summary>
    /// What a connection header asks for: the database and the protocol version, or null for <c>Drop</c> (the worker is
    /// leaving). Static and free of the connection so the fuzzing harness (tests/Fuzz) can drive it with hostile input.
    /// </summary>
    /// <exception cref="InvalidDataException">The header asks for another operation or lacks its database or version.</exception>
    internal static (string Database, int Version)? ReadHeader(JsonElement root)
    {
        string? operation = root.ValueKind == JsonValueKind.Object && root.TryGetProperty("Operation", out JsonElement op) && op.ValueKind == JsonValueKind.String ? op.GetString() : null;
        if (operation == "Drop")
            return null;
        if (operation != "Subscription")
            throw new InvalidDataException($"This port serves the \"Subscription\" operation only; the header asks for '{operation}'.");
        if (!root.TryGetProperty("DatabaseName", out JsonElement name) || name.ValueKind != JsonValueKind.String || string.IsNullOrEmpty(name.GetString()))
            throw new InvalidDataException("The header needs \"DatabaseName\" as a non-empty string.");
        if (!root.TryGetProperty("OperationVersion", out JsonElement given) || given.ValueKind != JsonValueKind.Number || !given.TryGetInt32(out int version))
            throw new InvalidDataException("The header needs \"OperationVersion\" as a whole number.");
        return (name.GetString()!, version);
    }

    private async Task RefuseHeaderAsync(string status, int version, string message)
    {
        SubscriptionLog.Refused(_logger, Name ?? "(none)", status, message);
        await SendHeaderAsync(status, version, message);
        await Output.CompleteAsync();
    }

    private ValueTask SendHeaderAsync(string status, int version, string? message) =>
        SendAsync(static (w, s) =>
        {
            w.WriteStartObject();
            w.WriteString("Status"u8, s.status);
            w.WriteNumber("Version"u8, s.version);
            if (s.message is not null)
                w.WriteString("Message"u8, s.message);
            w.WriteStartObject("LicensedFeatures"u8);
            w.WriteBoolean("DataCompression"u8, false);
            w.WriteEndObject();
            w.WriteEndObject();
        }, (status, version, message), _connection.ConnectionClosed);
}

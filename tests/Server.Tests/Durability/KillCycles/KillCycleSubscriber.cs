using System.Net.Sockets;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>
/// A subscription worker on Folio's TCP protocol that stays connected across kills (reconnecting with TakeOver, since
/// the restarted server may still hold its old session), acknowledges most batches and now and then leaves one
/// unacknowledged to be sent again. It checks, per session, that etags only grow, and at each connection that the
/// server resumes no later than the worker acknowledged (a later position would skip documents).
/// </summary>
internal sealed class KillCycleSubscriber(KillCycleServer servers, string database, string subscription, ChangeLog log, KillCycleReport report, Random random)
{
    private long _highestSent;
    private long _highestStored;

    public async Task RunAsync(CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            try
            {
                ServerProcess server = await servers.UpAsync().WaitAsync(stop);
                using SubscriptionClient client = await SubscriptionClient.ConnectAsync(server.TcpEndPoint, SubscriptionClient.Header(database, subscription, strategy: "TakeOver", batchSize: 64));
                await SessionAsync(client, stop);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e) when (e is IOException or SocketException or TimeoutException or JsonException or InvalidOperationException or ObjectDisposedException or OperationCanceledException)
            {
                // The server was killed or is starting; connect again. The pause keeps a dead port from being hammered.
                report.Count("subscription reconnects");
                await Task.Delay(20, CancellationToken.None);
            }
        }
    }

    private async Task SessionAsync(SubscriptionClient client, CancellationToken stop)
    {
        JsonElement connected = await ReceiveAsync(client, stop);
        if (connected.GetProperty("Type").GetString() != "Connected")
            throw new InvalidOperationException(connected.GetRawText());
        long position = connected.GetProperty("AcknowledgedEtag").GetInt64();
        if (position > _highestSent)
            report.Anomaly($"subscription resumed at etag {position}, beyond the worker's highest acknowledgement {_highestSent}: documents skipped");
        if (position < _highestStored)
            report.Count("subscription positions behind a stored acknowledgement");
        long last = position;
        long unconfirmed = 0;
        while (true)
        {
            JsonElement batch = await ReceiveAsync(client, stop);
            if (batch.GetProperty("Type").GetString() != "Batch")
                throw new InvalidOperationException(batch.GetRawText());

            // The server stores an acknowledgement before it sends the next batch.
            _highestStored = Math.Max(_highestStored, unconfirmed);
            foreach (JsonElement item in batch.GetProperty("Items").EnumerateArray())
            {
                long etag = item.GetProperty("Etag").GetInt64();
                if (etag <= last)
                    report.Anomaly($"subscription sent etag {etag} after {last} in one session");
                last = etag;
                bool deleted = item.GetProperty("ChangeType").GetString() == "Delete";
                log.Record(etag, item.GetProperty("Id").GetString()!, deleted, item.GetProperty("ChangeVector").GetString());
                report.Count("subscription items received");
            }

            report.Count("subscription batches received");
            if (random.Next(10) == 0)
            {
                report.Count("subscription batches left unacknowledged");
                return;
            }

            unconfirmed = batch.GetProperty("LastEtag").GetInt64();
            _highestSent = Math.Max(_highestSent, unconfirmed);
            await client.AcknowledgeAsync(batch);
        }
    }

    private static async Task<JsonElement> ReceiveAsync(SubscriptionClient client, CancellationToken stop) =>
        await client.ReceiveAsync().WaitAsync(stop) ?? throw new IOException("The server closed the subscription connection.");
}

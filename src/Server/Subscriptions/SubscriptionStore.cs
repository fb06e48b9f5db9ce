using System.Globalization;
using System.Text.Json;
using Folio.Storage.Documents;

namespace Folio.Server.Subscriptions;

/// <summary>
/// A database's data subscriptions, kept in <c>subscriptions.json</c> in its folder: created and deleted over REST,
/// their positions moved by the workers' acknowledgements. The file is replaced whole (written beside, flushed to
/// disk, renamed over), so a crash leaves the old or the new one; a lost acknowledgement only means a batch is
/// delivered again.
/// </summary>
public sealed class SubscriptionStore
{
    private const string FileName = "subscriptions.json";
    private const int MaxNameLength = 256;

    private readonly string _path;
    private readonly DocumentStore _documents;
    private readonly Lock _gate = new();
    private readonly Dictionary<string, Subscription> _subscriptions = new(StringComparer.OrdinalIgnoreCase);
    private long _lastId;

    internal SubscriptionStore(string directory, DocumentStore documents)
    {
        _path = Path.Combine(directory, FileName);
        _documents = documents;
        Load();
    }

    /// <summary>The subscriptions, ordered by name.</summary>
    public IReadOnlyList<Subscription> List()
    {
        lock (_gate)
        {
            var all = new List<Subscription>(_subscriptions.Values);
            all.Sort(static (a, b) => StringComparer.OrdinalIgnoreCase.Compare(a.Name, b.Name));
            return all;
        }
    }

    /// <summary>The subscription named <paramref name="name"/> (any casing), or null.</summary>
    public Subscription? Get(string name)
    {
        lock (_gate)
            return _subscriptions.GetValueOrDefault(name);
    }

    /// <summary>The subscription whose <see cref="Subscription.Id"/> is <paramref name="id"/>, or null.</summary>
    public Subscription? Get(long id)
    {
        lock (_gate)
        {
            foreach (Subscription subscription in _subscriptions.Values)
            {
                if (subscription.Id == id)
                    return subscription;
            }

            return null;
        }
    }

    /// <summary>
    /// Creates a subscription delivering what <paramref name="query"/> selects, from the first document
    /// (<c>Beginning</c>, the default), from the next write (<c>Now</c>) or after an etag.
    /// </summary>
    /// <exception cref="SubscriptionException"><c>Invalid</c> name or start, or <c>Exists</c>.</exception>
    /// <exception cref="Indexing.Querying.QueryException">The query is not one a subscription can run.</exception>
    /// <remarks>
    /// Without a <paramref name="name"/> (the seeds' clients may leave naming to the server) it is named with the smallest
    /// whole number no subscription is named with.
    /// </remarks>
    public Subscription Create(string? name, string query, string? startFrom)
    {
        if (name is null)
        {
            lock (_gate)
            {
                long number = _subscriptions.Count + 1;
                for (long candidate = 1; candidate <= _subscriptions.Count + 1; candidate++)
                {
                    if (!_subscriptions.ContainsKey(candidate.ToString(CultureInfo.InvariantCulture)))
                    {
                        number = candidate;
                        break;
                    }
                }
                return Add(number.ToString(CultureInfo.InvariantCulture), query, startFrom);
            }
        }

        lock (_gate)
            return Add(name, query, startFrom);
    }

    /// <summary>
    /// Recreates a backed-up subscription at its position: like <see cref="Create"/>, except that one whose query this
    /// build does not run comes back disabled with its <see cref="Subscription.Problem"/>, as it would open, rather than
    /// failing the restore.
    /// </summary>
    public Subscription Restore(string name, string query, string startFrom) => Add(name, query, startFrom, stored: true);

    private Subscription Add(string name, string query, string? startFrom, bool stored = false)
    {
        if (string.IsNullOrWhiteSpace(name) || name.Length > MaxNameLength || name.Any(char.IsControl))
            throw new SubscriptionException("Invalid", $"A subscription's name must be 1 to {MaxNameLength} characters without control characters.");
        long start = StartEtag(startFrom) ?? 0;
        lock (_gate)
        {
            var subscription = stored
                ? Subscription.Stored(_lastId + 1, name, query, start, DateTime.UtcNow, disabled: false)
                : new Subscription(_lastId + 1, name, query, start, DateTime.UtcNow, disabled: false);
            if (!_subscriptions.TryAdd(name, subscription))
                throw new SubscriptionException("Exists", $"There is already a subscription named '{name}'; delete it first or pick another name.");
            _lastId++;
            Save();
            return subscription;
        }
    }

    /// <summary>
    /// Replaces <paramref name="subscription"/>'s query and, when <paramref name="startFrom"/> is given, where it resumes;
    /// its worker is let go (told <c>Updated</c>) and reconnects to the new definition.
    /// </summary>
    /// <exception cref="SubscriptionException"><c>NotFound</c> when it was deleted meanwhile; <c>Invalid</c> start.</exception>
    /// <exception cref="Indexing.Querying.QueryException">The query is not one a subscription can run.</exception>
    public void Update(Subscription subscription, string query, string? startFrom)
    {
        var matcher = Indexing.Querying.Matching.DocumentMatcher.Compile(query);
        long? restartAt = StartEtag(startFrom);
        SubscriptionWorker? released;
        lock (_gate)
        {
            if (subscription.IsDeleted)
                throw new SubscriptionException("NotFound", $"There is no subscription named '{subscription.Name}'.");
            released = subscription.Redefine(query, matcher, restartAt);
            Save();
        }

        released?.End("Updated");
    }

    /// <summary>Disables (letting its worker go, told <c>Disabled</c>) or enables <paramref name="subscription"/>.</summary>
    /// <exception cref="SubscriptionException"><c>Invalid</c> when enabling one whose stored query does not run in this build.</exception>
    public void SetDisabled(Subscription subscription, bool disabled)
    {
        SubscriptionWorker? released;
        lock (_gate)
        {
            if (!disabled && subscription.Problem is { } problem)
                throw new SubscriptionException("Invalid", $"Subscription '{subscription.Name}' stays disabled: its query does not run in this build ({problem}). Update its query, then enable it.");
            released = subscription.SetDisabled(disabled);
            if (!subscription.IsDeleted)
                Save();
        }

        released?.End("Disabled");
    }

    /// <summary>Ends the session of <paramref name="subscription"/>'s worker (told <c>Dropped</c>), if one is connected; it may reconnect.</summary>
    /// <returns>Whether a worker was connected.</returns>
    public static bool Drop(Subscription subscription)
    {
        SubscriptionWorker? released = subscription.Release();
        released?.End("Dropped");
        return released is not null;
    }

    /// <summary>The etag a start names: null for none, 0 for <c>Beginning</c>, the last etag for <c>Now</c>, or the etag given.</summary>
    private long? StartEtag(string? startFrom) => startFrom switch
    {
        null => null,
        "Beginning" => 0,
        "Now" => _documents.LastEtag,
        _ when long.TryParse(startFrom, NumberStyles.None, CultureInfo.InvariantCulture, out long etag) => etag,
        _ => throw new SubscriptionException("Invalid", $"StartFrom must be \"Beginning\", \"Now\" or an etag; it is '{startFrom}'."),
    };

    /// <summary>Deletes a subscription and ends its worker's session; false when there was none.</summary>
    public bool Delete(string name)
    {
        Subscription? removed;
        lock (_gate)
        {
            if (!_subscriptions.Remove(name, out removed))
                return false;
            Save();
        }

        removed.MarkDeleted()?.End("Deleted");
        return true;
    }

    /// <summary>Records that <paramref name="subscription"/>'s worker processed everything through <paramref name="etag"/>.</summary>
    internal void Acknowledge(Subscription subscription, long etag)
    {
        subscription.Acknowledge(etag);
        lock (_gate)
        {
            if (!subscription.IsDeleted)
                Save();
        }
    }

    private void Load()
    {
        if (!File.Exists(_path))
            return;
        using JsonDocument file = JsonDocument.Parse(File.ReadAllBytes(_path));
        if (file.RootElement.TryGetProperty("LastId", out JsonElement lastId))
            _lastId = lastId.GetInt64();
        foreach (JsonElement item in file.RootElement.GetProperty("Subscriptions").EnumerateArray())
        {
            // Files written before subscriptions had numbers get them in file order.
            long id = item.TryGetProperty("Id", out JsonElement given) ? given.GetInt64() : ++_lastId;
            _lastId = Math.Max(_lastId, id);
            var subscription = Subscription.Stored(
                id,
                item.GetProperty("Name").GetString()!,
                item.GetProperty("Query").GetString()!,
                item.GetProperty("AcknowledgedEtag").GetInt64(),
                item.GetProperty("CreatedAt").GetDateTime(),
                item.TryGetProperty("Disabled", out JsonElement disabled) && disabled.ValueKind == JsonValueKind.True);
            _subscriptions[subscription.Name] = subscription;
        }
    }

    private void Save()
    {
        string temporary = _path + ".tmp";
        using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
        {
            using (var writer = new Utf8JsonWriter(stream))
            {
                writer.WriteStartObject();
                writer.WriteNumber("LastId"u8, _lastId);
                writer.WriteStartArray("Subscriptions"u8);
                foreach (Subscription subscription in _subscriptions.Values)
                {
                    writer.WriteStartObject();
                    writer.WriteNumber("Id"u8, subscription.Id);
                    writer.WriteString("Name"u8, subscription.Name);
                    writer.WriteString("Query"u8, subscription.Query);
                    writer.WriteNumber("AcknowledgedEtag"u8, subscription.AcknowledgedEtag);
                    writer.WriteString("CreatedAt"u8, subscription.CreatedAt);
                    writer.WriteBoolean("Disabled"u8, subscription.DisabledByUser);
                    writer.WriteEndObject();
                }

                writer.WriteEndArray();
                writer.WriteEndObject();
            }

            stream.Flush(flushToDisk: true);
        }

        File.Move(temporary, _path, overwrite: true);
    }
}

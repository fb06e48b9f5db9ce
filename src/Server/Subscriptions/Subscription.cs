using Folio.Indexing.Querying.Matching;

namespace Folio.Server.Subscriptions;

/// <summary>
/// One data subscription: its query, the etag its worker has acknowledged (stored in the database's folder, moved only
/// by an acknowledgement, so delivery is at least once) and the worker connected now, if any.
/// </summary>
public sealed class Subscription
{
    private readonly Lock _gate = new();
    private SubscriptionWorker? _worker;
    private long _acknowledged;
    private Definition _definition;

    internal Subscription(long id, string name, string query, long acknowledgedEtag, DateTime createdAt, bool disabled)
        : this(id, name, query, DocumentMatcher.Compile(query), acknowledgedEtag, createdAt, disabled)
    {
    }

    private Subscription(long id, string name, string query, DocumentMatcher matcher, long acknowledgedEtag, DateTime createdAt, bool disabled)
    {
        Id = id;
        Name = name;
        _definition = new Definition(query, matcher);
        _acknowledged = acknowledgedEtag;
        CreatedAt = createdAt;
        DisabledByUser = disabled;
    }

    /// <summary>
    /// A stored subscription as the database opens: one whose query this build no longer compiles (a later build may
    /// refuse what an earlier one took) is kept disabled, matching nothing, with the reason in <see cref="Problem"/>, until
    /// it is updated (and enabled, if it was disabled) or deleted; a subscription must not keep its database from opening.
    /// </summary>
    internal static Subscription Stored(long id, string name, string query, long acknowledgedEtag, DateTime createdAt, bool disabled)
    {
        try
        {
            return new Subscription(id, name, query, acknowledgedEtag, createdAt, disabled);
        }
        catch (Exception e) when (e is Indexing.Querying.QueryException or Indexing.Rql.RqlParseException)
        {
            return new Subscription(id, name, query, DocumentMatcher.Nothing(CollectionOf(query)), acknowledgedEtag, createdAt, disabled) { Problem = e.Message };
        }
    }

    /// <summary>The collection a query reads, when it parses at all; else empty.</summary>
    private static string CollectionOf(string query)
    {
        try
        {
            return Indexing.Rql.RqlParser.Parse(query).From.Collection ?? string.Empty;
        }
        catch (Indexing.Rql.RqlParseException)
        {
            return string.Empty;
        }
    }

    /// <summary>Why its stored query does not run in this build (it is disabled until updated), or null.</summary>
    public string? Problem { get; private set; }

    /// <summary>The number the database gave it when it was created (from 1, never reused); the seeds' clients address it by it.</summary>
    public long Id { get; }

    /// <summary>The name, with the casing it was created with.</summary>
    public string Name { get; }

    /// <summary>The RQL that selects the documents (<c>from Orders where Total &gt; 100</c>).</summary>
    public string Query => Volatile.Read(ref _definition).Query;

    /// <summary>The compiled query.</summary>
    public DocumentMatcher Matcher => Volatile.Read(ref _definition).Matcher;

    /// <summary>Whether it is disabled: no worker may connect until it is enabled again, or while its query does not run here (<see cref="Problem"/>).</summary>
    public bool Disabled => DisabledByUser || Problem is not null;

    /// <summary>
    /// Whether a user disabled it: what is stored, so that a subscription disabled only because this build does not run
    /// its query comes back enabled under a build that does.
    /// </summary>
    internal bool DisabledByUser { get; private set; }

    /// <summary>When a worker last acknowledged a batch (UTC), since the server started; null before.</summary>
    public DateTime? LastAcknowledgedAt { get; private set; }

    /// <summary>When a worker last connected (UTC), since the server started; null before.</summary>
    public DateTime? LastConnectedAt { get; private set; }

    /// <summary>When it was created (UTC).</summary>
    public DateTime CreatedAt { get; }

    /// <summary>The etag through which the worker has acknowledged every document; delivery resumes after it.</summary>
    public long AcknowledgedEtag => Interlocked.Read(ref _acknowledged);

    /// <summary>The worker connected now, or null.</summary>
    public SubscriptionWorker? Worker
    {
        get
        {
            lock (_gate)
                return _worker;
        }
    }

    /// <summary>Whether the subscription was deleted (its worker is told and disconnected).</summary>
    public bool IsDeleted { get; private set; }

    /// <summary>
    /// Makes <paramref name="worker"/> the one worker; when another is connected, it either refuses (null) or, with
    /// <paramref name="takeOver"/>, ends the other one's session and returns it to be told.
    /// </summary>
    internal (bool Connected, SubscriptionWorker? Replaced) Connect(SubscriptionWorker worker, bool takeOver)
    {
        lock (_gate)
        {
            if (IsDeleted)
                return (false, null);
            SubscriptionWorker? current = _worker;
            if (current is not null && !takeOver)
                return (false, null);
            _worker = worker;
            LastConnectedAt = worker.ConnectedAt;
            return (true, current);
        }
    }

    /// <summary>Lets go of <paramref name="worker"/> if it is still the connected one.</summary>
    internal void Disconnect(SubscriptionWorker worker)
    {
        lock (_gate)
        {
            if (ReferenceEquals(_worker, worker))
                _worker = null;
        }
    }

    /// <summary>Lets go of the connected worker, if any, and returns it to be told why.</summary>
    internal SubscriptionWorker? Release()
    {
        lock (_gate)
            return ReleaseLocked();
    }

    /// <summary>Disables or enables it; disabling lets go of the connected worker and returns it to be told.</summary>
    internal SubscriptionWorker? SetDisabled(bool disabled)
    {
        lock (_gate)
        {
            DisabledByUser = disabled;
            return disabled ? ReleaseLocked() : null;
        }
    }

    /// <summary>Replaces the query (already compiled) and, when <paramref name="restartAt"/> is given, the position; lets go of the connected worker.</summary>
    internal SubscriptionWorker? Redefine(string query, DocumentMatcher matcher, long? restartAt)
    {
        lock (_gate)
        {
            Volatile.Write(ref _definition, new Definition(query, matcher));
            Problem = null;
            if (restartAt is { } etag)
                Interlocked.Exchange(ref _acknowledged, etag);
            return ReleaseLocked();
        }
    }

    private SubscriptionWorker? ReleaseLocked()
    {
        SubscriptionWorker? worker = _worker;
        _worker = null;
        return worker;
    }

    /// <summary>Moves the acknowledged etag forward (never back).</summary>
    internal void Acknowledge(long etag)
    {
        LastAcknowledgedAt = DateTime.UtcNow;
        long current;
        do
        {
            current = Interlocked.Read(ref _acknowledged);
            if (etag <= current)
                return;
        }
        while (Interlocked.CompareExchange(ref _acknowledged, etag, current) != current);
    }

    /// <summary>Marks it deleted and returns the worker to tell.</summary>
    internal SubscriptionWorker? MarkDeleted()
    {
        lock (_gate)
        {
            IsDeleted = true;
            return ReleaseLocked();
        }
    }

    private sealed record Definition(string Query, DocumentMatcher Matcher);
}

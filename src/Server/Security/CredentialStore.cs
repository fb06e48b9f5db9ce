using System.Collections.Frozen;
using Folio.Server.Configuration;

namespace Folio.Server.Security;

/// <summary>
/// The registered API keys and client certificates: an immutable snapshot read without locks by every request, and
/// changes that go through <see cref="CredentialFile"/> (re-read under its lock, so the command line and the server
/// can both write). A running server notices a file changed by the command line within a second: authentication
/// looks at the file's time at most once a second.
/// </summary>
public sealed class CredentialStore
{
    private readonly string _path;
    private readonly Lock _writeLock = new();
    private volatile Snapshot _snapshot;
    private long _nextRefreshCheck;

    /// <summary>Opens the store of a data directory.</summary>
    /// <param name="options">Supplies the data directory.</param>
    /// <exception cref="InvalidDataException">The credentials file is damaged.</exception>
    public CredentialStore(ServerOptions options)
        : this(CredentialFile.PathIn(options.DataDir))
    {
    }

    /// <summary>Opens the store kept in one file.</summary>
    /// <param name="path">The credentials file; it need not exist.</param>
    /// <exception cref="InvalidDataException">The file is damaged.</exception>
    public CredentialStore(string path)
    {
        _path = path;
        _snapshot = Load();
    }

    /// <summary>Every credential, keys then certificates, each by name.</summary>
    public IReadOnlyList<Credential> All => _snapshot.All;

    /// <summary>Finds the key whose public id this is; allocates nothing.</summary>
    /// <param name="id">The id read from a key (<see cref="ApiKeys.TryReadId"/>).</param>
    /// <returns>The credential, or null.</returns>
    public Credential? FindKey(ReadOnlySpan<char> id) =>
        _snapshot.KeysById.TryGetValue(id, out Credential? credential) ? credential : null;

    /// <summary>Finds the certificate of a thumbprint (hex, any case); allocates nothing.</summary>
    /// <param name="thumbprint">SHA-256 or SHA-1 thumbprint.</param>
    /// <returns>The credential, or null.</returns>
    public Credential? FindCertificate(ReadOnlySpan<char> thumbprint) =>
        _snapshot.CertificatesByThumbprint.TryGetValue(thumbprint, out Credential? credential) ? credential : null;

    /// <summary>Re-reads the file if another process changed it since it was read; checks at most once a second.</summary>
    /// <returns>True when the file was re-read.</returns>
    public bool RefreshIfChanged()
    {
        long now = Environment.TickCount64;
        long next = Interlocked.Read(ref _nextRefreshCheck);
        if (now < next || Interlocked.CompareExchange(ref _nextRefreshCheck, now + 1000, next) != next)
            return false;
        if (FileStamp() == _snapshot.Stamp)
            return false;
        lock (_writeLock)
            _snapshot = Load();
        return true;
    }

    /// <summary>Registers a new API key.</summary>
    /// <param name="name">Unique among keys.</param>
    /// <param name="clearance">What it may do.</param>
    /// <param name="databases">Its databases (see <see cref="Credential.Databases"/>).</param>
    /// <returns>The credential and the key's text, which is not kept anywhere and cannot be shown again.</returns>
    /// <exception cref="InvalidOperationException">A key of that name exists.</exception>
    public (Credential Credential, string Key) CreateKey(string name, Clearance clearance, IReadOnlyList<string> databases)
    {
        (string id, string key) = ApiKeys.Create();
        var credential = new Credential(name, CredentialKind.ApiKey, clearance, databases, id, ApiKeys.Hash(key), DateTimeOffset.UtcNow);
        Add(credential);
        return (credential, key);
    }

    /// <summary>Registers a client certificate by its thumbprint.</summary>
    /// <param name="name">Unique among certificates.</param>
    /// <param name="clearance">What it may do.</param>
    /// <param name="databases">Its databases.</param>
    /// <param name="thumbprint">Upper-case hex SHA-256 (64 digits) or SHA-1 (40 digits).</param>
    /// <returns>The credential.</returns>
    /// <exception cref="InvalidOperationException">A certificate of that name or thumbprint exists.</exception>
    public Credential AddCertificate(string name, Clearance clearance, IReadOnlyList<string> databases, string thumbprint)
    {
        var credential = new Credential(name, CredentialKind.Certificate, clearance, databases, thumbprint, [], DateTimeOffset.UtcNow);
        Add(credential);
        return credential;
    }

    /// <summary>Revokes a credential: requests carrying it are refused from the next one on.</summary>
    /// <param name="kind">Key or certificate.</param>
    /// <param name="name">Its name, exactly.</param>
    /// <returns>False when there was none.</returns>
    public bool Remove(CredentialKind kind, string name) =>
        Update(credentials => credentials.RemoveAll(c => c.Kind == kind && c.Name == name) > 0);

    private void Add(Credential credential) =>
        Update(credentials =>
        {
            if (credentials.Exists(c => c.Kind == credential.Kind && c.Name == credential.Name))
                throw new InvalidOperationException($"A{(credential.Kind == CredentialKind.ApiKey ? "n API key" : " certificate")} named '{credential.Name}' exists.");
            if (credential.Kind == CredentialKind.Certificate && credentials.Exists(c => c.Kind == CredentialKind.Certificate && c.Identifier == credential.Identifier))
                throw new InvalidOperationException($"The certificate {credential.Identifier} is registered under another name.");
            credentials.Add(credential);
            return true;
        });

    private bool Update(Func<List<Credential>, bool> change)
    {
        lock (_writeLock)
        {
            using FileStream held = CredentialFile.Lock(_path);
            List<Credential> credentials = CredentialFile.Read(_path);
            bool changed = change(credentials);
            if (changed)
                CredentialFile.Write(_path, credentials);
            _snapshot = new Snapshot(credentials, FileStamp());
            return changed;
        }
    }

    private Snapshot Load() => new(CredentialFile.Read(_path), FileStamp());

    private DateTime FileStamp() => File.Exists(_path) ? File.GetLastWriteTimeUtc(_path) : DateTime.MinValue;

    private sealed class Snapshot
    {
        public Snapshot(List<Credential> credentials, DateTime stamp)
        {
            Stamp = stamp;
            All = credentials.OrderBy(c => c.Kind).ThenBy(c => c.Name, StringComparer.Ordinal).ToArray();
            FrozenDictionary<string, Credential> keys = credentials.Where(c => c.Kind == CredentialKind.ApiKey)
                .ToFrozenDictionary(c => c.Identifier, StringComparer.Ordinal);
            FrozenDictionary<string, Credential> certificates = credentials.Where(c => c.Kind == CredentialKind.Certificate)
                .ToFrozenDictionary(c => c.Identifier, StringComparer.OrdinalIgnoreCase);
            KeysById = keys.GetAlternateLookup<ReadOnlySpan<char>>();
            CertificatesByThumbprint = certificates.GetAlternateLookup<ReadOnlySpan<char>>();
        }

        public DateTime Stamp { get; }

        public IReadOnlyList<Credential> All { get; }

        public FrozenDictionary<string, Credential>.AlternateLookup<ReadOnlySpan<char>> KeysById { get; }

        public FrozenDictionary<string, Credential>.AlternateLookup<ReadOnlySpan<char>> CertificatesByThumbprint { get; }
    }
}

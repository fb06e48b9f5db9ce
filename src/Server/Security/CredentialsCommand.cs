using Folio.Server.Configuration;
using Microsoft.Extensions.Configuration;

namespace Folio.Server.Security;

/// <summary>
/// The server binary's credential subcommands, which work on a data directory whether or not a server runs on it
/// (a running server picks changes up on the next request that needs them):
/// <c>api-keys create --Name= --Clearance= [--Databases=a,b]</c>, <c>api-keys list</c>, <c>api-keys revoke --Name=</c>,
/// <c>certificates add --Name= --Clearance= [--Databases=] (--Thumbprint= | --CertificateFile=cert.pem)</c>,
/// <c>certificates list</c>, <c>certificates revoke --Name=</c>. <c>--DataDir=</c> (or appsettings.json,
/// <c>FOLIO_DataDir</c>) names the data directory as for the server.
/// </summary>
internal static class CredentialsCommand
{
    /// <summary>Whether the arguments start with a credentials subcommand.</summary>
    /// <param name="args">The process's arguments.</param>
    /// <returns>True for <c>api-keys</c> and <c>certificates</c>.</returns>
    public static bool Handles(string[] args) => args.Length > 0 && args[0] is "api-keys" or "certificates";

    /// <summary>Runs the subcommand.</summary>
    /// <param name="args">The process's arguments, the subcommand first.</param>
    /// <param name="output">Where results go.</param>
    /// <param name="error">Where problems go.</param>
    /// <returns>The exit code: 0 done, 1 refused (exists, not found), 2 bad arguments.</returns>
    public static int Run(string[] args, TextWriter output, TextWriter error)
    {
        CredentialKind kind = args[0] == "api-keys" ? CredentialKind.ApiKey : CredentialKind.Certificate;
        string? verb = args.Length > 1 ? args[1] : null;
        var configuration = new ConfigurationBuilder();
        ServerConfiguration.AddSources(configuration, args[2..], AppContext.BaseDirectory);
        IConfigurationRoot settings = configuration.Build();
        string dataDir = Path.GetFullPath(settings["DataDir"] is { Length: > 0 } dir ? dir : "data");
        var store = new CredentialStore(CredentialFile.PathIn(dataDir));
        try
        {
            switch (verb)
            {
                case "create" when kind == CredentialKind.ApiKey:
                case "add" when kind == CredentialKind.Certificate:
                    return Register(kind, settings, store, output, error);
                case "list":
                    foreach (Credential credential in store.All.Where(c => c.Kind == kind))
                        output.WriteLine($"{credential.Name}\t{credential.Identifier}\t{credential.Clearance}\t{string.Join(",", credential.Databases)}\t{credential.CreatedAt:O}");
                    return 0;
                case "revoke":
                    string name = settings["Name"] ?? throw new ArgumentException("--Name= names what to revoke.");
                    if (store.Remove(kind, name))
                    {
                        output.WriteLine($"Revoked '{name}'.");
                        return 0;
                    }

                    error.WriteLine($"There is no {Noun(kind)} named '{name}' in {dataDir}.");
                    return 1;
                default:
                    error.WriteLine(Usage);
                    return 2;
            }
        }
        catch (ArgumentException ex)
        {
            error.WriteLine(ex.Message);
            error.WriteLine(Usage);
            return 2;
        }
        catch (InvalidOperationException ex)
        {
            error.WriteLine(ex.Message);
            return 1;
        }
    }

    private const string Usage =
        "Usage: Folio.Server api-keys create --Name=<name> --Clearance=Admin|ReadWrite|Read [--Databases=db1,db2|*] [--DataDir=<dir>]\n"
        + "       Folio.Server api-keys list | api-keys revoke --Name=<name>\n"
        + "       Folio.Server certificates add --Name=<name> --Clearance=… [--Databases=…] (--Thumbprint=<hex> | --CertificateFile=<cert.pem>)\n"
        + "       Folio.Server certificates list | certificates revoke --Name=<name>";

    private static int Register(CredentialKind kind, IConfiguration settings, CredentialStore store, TextWriter output, TextWriter error)
    {
        string[]? databases = settings["Databases"]?.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        string? thumbprint = null;
        if (kind == CredentialKind.Certificate)
        {
            string? given = settings["Thumbprint"];
            string? file = settings["CertificateFile"];
            if ((given is null) == (file is null))
                throw new ArgumentException("Give --Thumbprint=<hex> or --CertificateFile=<cert.pem>, one of them.");
            thumbprint = given is not null ? CredentialRequest.NormalizeThumbprint(given) : CredentialRequest.ThumbprintOfPem(File.ReadAllText(file!));
        }

        CredentialRequest request = CredentialRequest.Create(
            settings["Name"] ?? throw new ArgumentException("--Name= is required."),
            settings["Clearance"] ?? throw new ArgumentException("--Clearance= is required."),
            databases,
            thumbprint);
        if (kind == CredentialKind.ApiKey)
        {
            (Credential credential, string key) = store.CreateKey(request.Name, request.Clearance, request.Databases);
            output.WriteLine(key);
            error.WriteLine($"API key '{credential.Name}' ({credential.Clearance} on {string.Join(",", credential.Databases)}) created; the line above is its key, shown this once. Send it as 'Authorization: ApiKey <key>'.");
        }
        else
        {
            Credential credential = store.AddCertificate(request.Name, request.Clearance, request.Databases, request.Thumbprint!);
            output.WriteLine($"Certificate '{credential.Name}' {credential.Identifier} registered ({credential.Clearance} on {string.Join(",", credential.Databases)}).");
        }

        return 0;
    }

    private static string Noun(CredentialKind kind) => kind == CredentialKind.ApiKey ? "API key" : "certificate";
}

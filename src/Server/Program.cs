using Folio.Server.Configuration;
using Folio.Server.Hosting;

namespace Folio.Server;

/// <summary>
/// Entry point: <c>dotnet run --project src/Server [--DataDir=path] [--ServerUrl=http://host:port]</c> serves;
/// <c>… -- api-keys create|list|revoke</c> and <c>… -- certificates add|list|revoke</c> manage credentials (docs/operations.md);
/// <c>Folio.Server probe [url]</c> asks a running server whether it is ready (see <see cref="HealthProbe"/>).
/// </summary>
internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        if (Security.CredentialsCommand.Handles(args))
            return Security.CredentialsCommand.Run(args, Console.Out, Console.Error);
        if (args.Length > 0 && args[0] == HealthProbe.Command)
            return await HealthProbe.RunAsync(args[1..], Console.Out);

        FolioServer server;
        try
        {
            server = FolioServer.Create(args);
        }
        catch (ServerConfigurationException ex)
        {
            // No logger exists before the configuration is valid.
            await Console.Error.WriteLineAsync(ex.Message);
            return 2;
        }
        catch (Folio.Storage.StorageException ex)
        {
            // A database on disk could not be opened (typically another process holds its directory).
            await Console.Error.WriteLineAsync($"Folio cannot open its databases: {ex.Message}");
            return 1;
        }

        await using (server)
        {
            try
            {
                await server.StartAsync();
            }
            catch (IOException)
            {
                // StartAsync logged why (typically the address is in use).
                return 1;
            }

            await server.WaitForShutdownAsync();
        }

        return 0;
    }
}

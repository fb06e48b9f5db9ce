using Microsoft.Extensions.Configuration;

namespace Folio.Server.Configuration;

/// <summary>Where Folio's settings come from and how they become a validated <see cref="ServerOptions"/>.</summary>
public static class ServerConfiguration
{
    /// <summary>Prefix of the environment variables Folio reads, e.g. <c>FOLIO_DataDir</c>.</summary>
    public const string EnvironmentPrefix = "FOLIO_";

    /// <summary>
    /// Adds the sources in precedence order: appsettings.json beside the binaries, then
    /// <c>FOLIO_</c> environment variables, then the command line.
    /// </summary>
    /// <param name="configuration">The builder to add sources to.</param>
    /// <param name="args">Command-line arguments, e.g. <c>--DataDir=/tmp/folio</c>.</param>
    /// <param name="baseDirectory">Directory searched for appsettings.json.</param>
    public static void AddSources(IConfigurationBuilder configuration, string[] args, string baseDirectory)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        configuration.AddJsonFile(Path.Combine(baseDirectory, "appsettings.json"), optional: true, reloadOnChange: false);
        configuration.AddEnvironmentVariables(EnvironmentPrefix);
        configuration.AddCommandLine(args);
    }

    /// <summary>Binds the settings, resolves <see cref="ServerOptions.DataDir"/> to a full path and validates them.</summary>
    /// <param name="configuration">The configuration built from <see cref="AddSources"/>.</param>
    /// <returns>Options ready to serve with.</returns>
    /// <exception cref="ServerConfigurationException">One or more settings are invalid.</exception>
    public static ServerOptions Bind(IConfiguration configuration)
    {
        var options = new ServerOptions();
        try
        {
            configuration.Bind(options);
        }
        catch (InvalidOperationException ex)
        {
            // The binder reports unparsable values (e.g. "MaxPageSize=lots") this way.
            throw new ServerConfigurationException($"Invalid configuration: {ex.Message}");
        }

        IReadOnlyList<string> errors = options.Validate();
        if (errors.Count > 0)
            throw new ServerConfigurationException("Invalid configuration: " + string.Join(" ", errors));

        options.DataDir = Path.GetFullPath(options.DataDir);
        return options;
    }
}

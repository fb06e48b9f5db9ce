namespace Folio.Server.Configuration;

/// <summary>Thrown at start when the configured <see cref="ServerOptions"/> cannot be used.</summary>
public sealed class ServerConfigurationException : Exception
{
    /// <summary>Creates the exception with a message naming every invalid setting.</summary>
    /// <param name="message">What is wrong with the configuration.</param>
    public ServerConfigurationException(string message)
        : base(message)
    {
    }
}

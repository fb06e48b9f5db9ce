namespace Folio.Server.Wire;

/// <summary>What a write command does (see <see cref="CommandShape"/>).</summary>
public enum CommandType
{
    /// <summary>A type Folio does not know, or none given.</summary>
    Unknown,

    /// <summary>Stores the command's document under its id.</summary>
    Put,

    /// <summary>Deletes the document with the command's id.</summary>
    Delete,
}

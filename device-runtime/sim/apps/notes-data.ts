/** What Notes keeps per instance (its database), shared by its screens and its functions. */
export interface Note {
  id: number;
  title: string;
  body: string;
  /** When it was first saved, the instance's wall time (epoch ms); absent for sample notes. */
  created?: number;
}
/** The Settings screen's preferences (absent in data written before it existed: all off). */
export interface NotesPrefs {
  sync: boolean;
  backup: boolean;
  spellcheck: boolean;
}
export interface NotesData {
  notes: Note[];
  nextId: number;
  prefs?: NotesPrefs;
}

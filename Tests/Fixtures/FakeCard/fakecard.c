/*
 * fakecard: a sound card for tests, as an alsa-lib external control plugin (control_external.h).
 *
 *   ctl_type.fakecard { lib "/abs/path/libasound_module_ctl_fakecard.so" }
 *   ctl.fake { type fakecard state "/abs/dir/state" }
 *
 * Elements:
 *   CARD  "Headphone Jack"          boolean, read-only   state line  headphone=0|1
 *   CARD  "Headset Mic Jack"        boolean, read-only   state line  headsetmic=0|1
 *   CARD  "Dock Mute"               boolean, read-only   state line  dockmute=0|1  (not a jack)
 *   MIXER "Master Playback Volume"  integer 0..87, 2 ch  state line  volume=L,R
 *   MIXER "Master Playback Switch"  boolean, 2 ch        state line  switch=L,R
 *
 * The state lives in a text file that tests rewrite (write a temporary file, rename it over the
 * state file). Every read goes to the file. Writes (amixer sset) rewrite the file the same way.
 * Change events: the poll descriptor is an inotify descriptor on the file's directory
 * (IN_MOVED_TO | IN_CLOSE_WRITE); read_event drains it, re-reads the file and reports a
 * value-change event for each element whose value differs from the last one reported.
 *
 * Build: cc -DPIC -fPIC -shared -o libasound_module_ctl_fakecard.so fakecard.c -lasound
 */
#include <alsa/asoundlib.h>
#include <alsa/control_external.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

enum { E_HEADPHONE, E_HEADSETMIC, E_DOCKMUTE, E_VOLUME, E_SWITCH, E_COUNT };

#define VOLUME_MAX 87

struct elem_def {
	snd_ctl_elem_iface_t iface;
	const char *name;
	const char *key;
	int type;
	unsigned int access;
	unsigned int count;
};

static const struct elem_def elems[E_COUNT] = {
	{ SND_CTL_ELEM_IFACE_CARD, "Headphone Jack", "headphone", SND_CTL_ELEM_TYPE_BOOLEAN,
	  SND_CTL_EXT_ACCESS_READ, 1 },
	{ SND_CTL_ELEM_IFACE_CARD, "Headset Mic Jack", "headsetmic", SND_CTL_ELEM_TYPE_BOOLEAN,
	  SND_CTL_EXT_ACCESS_READ, 1 },
	{ SND_CTL_ELEM_IFACE_CARD, "Dock Mute", "dockmute", SND_CTL_ELEM_TYPE_BOOLEAN,
	  SND_CTL_EXT_ACCESS_READ, 1 },
	{ SND_CTL_ELEM_IFACE_MIXER, "Master Playback Volume", "volume", SND_CTL_ELEM_TYPE_INTEGER,
	  SND_CTL_EXT_ACCESS_READWRITE, 2 },
	{ SND_CTL_ELEM_IFACE_MIXER, "Master Playback Switch", "switch", SND_CTL_ELEM_TYPE_BOOLEAN,
	  SND_CTL_EXT_ACCESS_READWRITE, 2 },
};

struct state {
	long values[E_COUNT][2];
};

struct fakecard {
	snd_ctl_ext_t ext;
	char *path;      /* the state file */
	char *basename;  /* its name inside the watched directory */
	struct state reported; /* values as of the last events handed out */
	unsigned int pending;  /* bit per element: a change event not yet read */
};

static void state_defaults(struct state *s)
{
	memset(s, 0, sizeof(*s));
	s->values[E_VOLUME][0] = s->values[E_VOLUME][1] = VOLUME_MAX;
	s->values[E_SWITCH][0] = s->values[E_SWITCH][1] = 1;
}

static long clamp(long v, long lo, long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Reads the state file; a missing or partial file leaves the defaults. */
static void state_load(const struct fakecard *card, struct state *s)
{
	char line[256];
	FILE *f;

	state_defaults(s);
	f = fopen(card->path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');
		int e;
		if (!eq)
			continue;
		*eq = '\0';
		for (e = 0; e < E_COUNT; e++) {
			long a, b;
			int n;
			if (strcmp(line, elems[e].key) != 0)
				continue;
			n = sscanf(eq + 1, "%ld,%ld", &a, &b);
			if (n < 1)
				break;
			if (n == 1)
				b = a;
			if (elems[e].type == SND_CTL_ELEM_TYPE_BOOLEAN) {
				a = a != 0;
				b = b != 0;
			} else {
				a = clamp(a, 0, VOLUME_MAX);
				b = clamp(b, 0, VOLUME_MAX);
			}
			s->values[e][0] = a;
			s->values[e][1] = b;
			break;
		}
	}
	fclose(f);
}

/* Writes the state file atomically: temporary file, then rename over the state file. */
static int state_store(const struct fakecard *card, const struct state *s)
{
	char tmp[PATH_MAX];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.plugin-%d", card->path, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fprintf(f, "headphone=%ld\nheadsetmic=%ld\ndockmute=%ld\nvolume=%ld,%ld\nswitch=%ld,%ld\n",
		s->values[E_HEADPHONE][0], s->values[E_HEADSETMIC][0], s->values[E_DOCKMUTE][0],
		s->values[E_VOLUME][0], s->values[E_VOLUME][1],
		s->values[E_SWITCH][0], s->values[E_SWITCH][1]);
	if (fclose(f) != 0 || rename(tmp, card->path) != 0) {
		int err = -errno;
		unlink(tmp);
		return err;
	}
	return 0;
}

static void fakecard_close(snd_ctl_ext_t *ext)
{
	struct fakecard *card = ext->private_data;
	if (ext->poll_fd >= 0)
		close(ext->poll_fd);
	free(card->path);
	free(card);
}

static int fakecard_elem_count(snd_ctl_ext_t *ext)
{
	(void)ext;
	return E_COUNT;
}

static int fakecard_elem_list(snd_ctl_ext_t *ext, unsigned int offset, snd_ctl_elem_id_t *id)
{
	(void)ext;
	if (offset >= E_COUNT)
		return -EINVAL;
	snd_ctl_elem_id_set_interface(id, elems[offset].iface);
	snd_ctl_elem_id_set_name(id, elems[offset].name);
	return 0;
}

static snd_ctl_ext_key_t fakecard_find_elem(snd_ctl_ext_t *ext, const snd_ctl_elem_id_t *id)
{
	const char *name = snd_ctl_elem_id_get_name(id);
	unsigned int numid = snd_ctl_elem_id_get_numid(id);
	int e;

	(void)ext;
	if (numid > 0 && numid <= E_COUNT)
		return numid - 1;
	for (e = 0; e < E_COUNT; e++)
		if (snd_ctl_elem_id_get_interface(id) == elems[e].iface && strcmp(name, elems[e].name) == 0)
			return e;
	return SND_CTL_EXT_KEY_NOT_FOUND;
}

static int fakecard_get_attribute(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, int *type,
				  unsigned int *acc, unsigned int *count)
{
	(void)ext;
	if (key >= E_COUNT)
		return -EINVAL;
	*type = elems[key].type;
	*acc = elems[key].access;
	*count = elems[key].count;
	return 0;
}

static int fakecard_get_integer_info(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, long *imin,
				     long *imax, long *istep)
{
	(void)ext;
	if (key != E_VOLUME)
		return -EINVAL;
	*imin = 0;
	*imax = VOLUME_MAX;
	*istep = 1;
	return 0;
}

static int fakecard_read_integer(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, long *value)
{
	struct fakecard *card = ext->private_data;
	struct state s;
	unsigned int c;

	if (key >= E_COUNT)
		return -EINVAL;
	state_load(card, &s);
	for (c = 0; c < elems[key].count; c++)
		value[c] = s.values[key][c];
	return 0;
}

static int fakecard_write_integer(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, long *value)
{
	struct fakecard *card = ext->private_data;
	struct state s;
	unsigned int c;
	int changed = 0, err;

	if (key >= E_COUNT || !(elems[key].access & SND_CTL_EXT_ACCESS_WRITE))
		return -EPERM;
	state_load(card, &s);
	for (c = 0; c < elems[key].count; c++) {
		long v = elems[key].type == SND_CTL_ELEM_TYPE_BOOLEAN ? value[c] != 0
								      : clamp(value[c], 0, VOLUME_MAX);
		if (s.values[key][c] != v) {
			s.values[key][c] = v;
			changed = 1;
		}
	}
	if (!changed)
		return 0;
	err = state_store(card, &s);
	return err < 0 ? err : 1;
}

static void fakecard_subscribe_events(snd_ctl_ext_t *ext, int subscribe)
{
	(void)ext;
	(void)subscribe;
}

/* Drains the inotify descriptor; returns whether the state file itself was replaced or written. */
static int drain_notifications(struct fakecard *card)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int touched = 0;

	for (;;) {
		ssize_t n = read(card->ext.poll_fd, buf, sizeof(buf));
		char *p;
		if (n <= 0)
			break;
		for (p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			if (ev->len > 0 && strcmp(ev->name, card->basename) == 0)
				touched = 1;
			p += sizeof(*ev) + ev->len;
		}
	}
	return touched;
}

static int fakecard_read_event(snd_ctl_ext_t *ext, snd_ctl_elem_id_t *id, unsigned int *event_mask)
{
	struct fakecard *card = ext->private_data;
	int e;

	if (drain_notifications(card)) {
		struct state now;
		state_load(card, &now);
		for (e = 0; e < E_COUNT; e++)
			if (memcmp(now.values[e], card->reported.values[e], sizeof(now.values[e])) != 0)
				card->pending |= 1u << e;
		card->reported = now;
	}
	if (!ext->subscribed) {
		card->pending = 0;
		return -EAGAIN;
	}
	for (e = 0; e < E_COUNT; e++) {
		if (!(card->pending & (1u << e)))
			continue;
		card->pending &= ~(1u << e);
		snd_ctl_elem_id_set_numid(id, e + 1);
		snd_ctl_elem_id_set_interface(id, elems[e].iface);
		snd_ctl_elem_id_set_name(id, elems[e].name);
		*event_mask = SND_CTL_EVENT_MASK_VALUE;
		return 1;
	}
	return -EAGAIN;
}

static const snd_ctl_ext_callback_t fakecard_callback = {
	.close = fakecard_close,
	.elem_count = fakecard_elem_count,
	.elem_list = fakecard_elem_list,
	.find_elem = fakecard_find_elem,
	.get_attribute = fakecard_get_attribute,
	.get_integer_info = fakecard_get_integer_info,
	.read_integer = fakecard_read_integer,
	.write_integer = fakecard_write_integer,
	.subscribe_events = fakecard_subscribe_events,
	.read_event = fakecard_read_event,
};

SND_CTL_PLUGIN_DEFINE_FUNC(fakecard)
{
	snd_config_iterator_t i, next;
	const char *state_path = NULL;
	struct fakecard *card;
	char *slash;
	int err;

	(void)root;
	snd_config_for_each(i, next, conf) {
		snd_config_t *n = snd_config_iterator_entry(i);
		const char *id;
		if (snd_config_get_id(n, &id) < 0)
			continue;
		if (strcmp(id, "comment") == 0 || strcmp(id, "type") == 0 || strcmp(id, "hint") == 0)
			continue;
		if (strcmp(id, "state") == 0) {
			if (snd_config_get_string(n, &state_path) < 0) {
				SNDERR("fakecard: state must be a string");
				return -EINVAL;
			}
			continue;
		}
		SNDERR("fakecard: unknown field %s", id);
		return -EINVAL;
	}
	if (!state_path || state_path[0] != '/') {
		SNDERR("fakecard: state must be an absolute path");
		return -EINVAL;
	}

	card = calloc(1, sizeof(*card));
	if (!card)
		return -ENOMEM;
	card->path = strdup(state_path);
	if (!card->path) {
		free(card);
		return -ENOMEM;
	}
	slash = strrchr(card->path, '/');
	card->basename = slash + 1;

	card->ext.poll_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (card->ext.poll_fd < 0) {
		err = -errno;
		goto fail;
	}
	*slash = '\0';
	err = inotify_add_watch(card->ext.poll_fd, slash == card->path ? "/" : card->path,
				IN_MOVED_TO | IN_CLOSE_WRITE);
	*slash = '/';
	if (err < 0) {
		err = -errno;
		SNDERR("fakecard: cannot watch the directory of %s", card->path);
		goto fail;
	}
	state_load(card, &card->reported);

	card->ext.version = SND_CTL_EXT_VERSION;
	card->ext.card_idx = 0;
	strcpy(card->ext.id, "FakeCard");
	strcpy(card->ext.driver, "fakecard");
	strcpy(card->ext.name, "Fake Card");
	strcpy(card->ext.longname, "Fake Card (test fixture, state file)");
	strcpy(card->ext.mixername, "Fake Mixer");
	card->ext.callback = &fakecard_callback;
	card->ext.private_data = card;

	err = snd_ctl_ext_create(&card->ext, name, mode);
	if (err < 0)
		goto fail;
	*handlep = card->ext.handle;
	return 0;

fail:
	if (card->ext.poll_fd >= 0)
		close(card->ext.poll_fd);
	free(card->path);
	free(card);
	return err;
}

SND_CTL_PLUGIN_SYMBOL(fakecard);
